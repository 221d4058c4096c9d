import { Counter, Histogram, type Registry } from 'prom-client';

const durationBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900];

/** How one indexing attempt of a document ended. */
export type IngestOutcome = 'indexed' | 'failed' | 'cancelled';

/** What the ingest pipeline reports as it indexes documents (uploads, syncs and rebuilds alike). */
export interface IngestObserver {
  attemptEnded(result: { outcome: IngestOutcome; seconds: number; chunks: number; sourceBytes: number }): void;
}

/** Ingestion throughput of this process: documents, chunks and stored bytes indexed, and how long each took. */
export class IngestMetrics implements IngestObserver {
  readonly #documents: Counter<'outcome'>;
  readonly #chunks: Counter;
  readonly #bytes: Counter;
  readonly #duration: Histogram<'outcome'>;

  constructor(registry: Registry) {
    this.#documents = new Counter({
      name: 'docqa_ingest_documents_total',
      help:
        'Indexing attempts of documents, by outcome (indexed, failed, ' +
        'cancelled); a failed attempt that is retried counts again.',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.#chunks = new Counter({
      name: 'docqa_ingest_chunks_total',
      help: 'Chunks written by documents indexed.',
      registers: [registry],
    });
    this.#bytes = new Counter({
      name: 'docqa_ingest_source_bytes_total',
      help: 'Size of the stored files of documents indexed, in bytes.',
      registers: [registry],
    });
    this.#duration = new Histogram({
      name: 'docqa_ingest_duration_seconds',
      help: 'Time to index one document (extract, chunk, embed, write), by outcome.',
      labelNames: ['outcome'],
      buckets: durationBuckets,
      registers: [registry],
    });
  }

  attemptEnded({ outcome, seconds, chunks, sourceBytes }: Parameters<IngestObserver['attemptEnded']>[0]): void {
    this.#documents.inc({ outcome });
    this.#duration.observe({ outcome }, seconds);
    if (outcome !== 'indexed') return;
    this.#chunks.inc(chunks);
    this.#bytes.inc(sourceBytes);
  }
}
