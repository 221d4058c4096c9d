import type { JobContext } from '@docqa/plugin-api';
import type { DocumentsEnvironment } from './environment.js';
import type { IngestPipeline } from './ingest.js';
import type { CurrentModels } from '../models/contract.js';

import { rebuildQueue } from './queues.js';

export interface IndexStats {
  documents: { total: number; pending: number; indexing: number; indexed: number; failed: number };
  chunks: number;
  embedded_chunks: number;
  embedding_spaces: Array<{ model: string; dimensions: number; count: number }>;
  index_size_bytes: number;
  last_update: string | null;
}

/** What is in the index, and rebuilding it document by document while it keeps serving. */
export class IndexService {
  constructor(
    private readonly env: Pick<DocumentsEnvironment, 'db' | 'jobs' | 'vectorStore'>,
    private readonly models: CurrentModels,
  ) {}

  async stats(): Promise<IndexStats> {
    const db = this.env.db;
    const { rows: statusRows } = await db.query<{ status: string; n: string }>(
      'select status, count(*) as n from document group by status',
    );
    const byStatus = Object.fromEntries(statusRows.map((row) => [row.status, Number(row.n)]));
    const { rows: chunkRows } = await db.query<{ n: string; last: string | null }>(
      `select (select count(*) from chunk) as n, (select max(indexed_at) from document) as last`,
    );
    // Everything the index occupies on disk, indexes and TOAST included, for the tables that exist.
    const { rows: sizeRows } = await db.query<{ bytes: string | null }>(
      `select sum(pg_total_relation_size(c.oid)) as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = current_schema() and c.relkind = 'r' and c.relname in ('document', 'chunk', 'chunk_term',
         'term_stats', 'vector_embedding')`,
    );
    const store = this.env.vectorStore;
    const spaces = store ? await store.spaces() : [];
    const current = this.models.embedder()?.space ?? null;
    const embedded = current
      ? (spaces.find((space) => space.model === current.model && space.dimensions === current.dimensions)?.count ?? 0)
      : 0;
    return {
      documents: {
        total: Object.values(byStatus).reduce((sum, n) => sum + n, 0),
        pending: byStatus.pending ?? 0,
        indexing: byStatus.indexing ?? 0,
        indexed: byStatus.indexed ?? 0,
        failed: byStatus.failed ?? 0,
      },
      chunks: Number(chunkRows[0]?.n ?? 0),
      embedded_chunks: embedded,
      embedding_spaces: spaces.map((space) => ({
        model: space.model,
        dimensions: space.dimensions,
        count: space.count,
      })),
      index_size_bytes: Number(sizeRows[0]?.bytes ?? 0),
      last_update: chunkRows[0]?.last ? new Date(chunkRows[0].last).toISOString() : null,
    };
  }

  async startRebuild(requestedBy: string): Promise<string> {
    return this.env.jobs.send(rebuildQueue, { requestedBy }, { singletonKey: 'rebuild' });
  }

  /**
   * Re-indexes every document, one at a time. Each document's new chunks replace its old ones in
   * one transaction, so search keeps answering from the old index until each new part is ready.
   * Cancelling stops between documents (and aborts the one in progress).
   */
  async rebuild(
    job: JobContext<{ requestedBy: string }>,
    pipeline: IngestPipeline,
  ): Promise<{ reindexed: number; failed: number }> {
    const { rows } = await this.env.db.query<{ id: string }>(
      `select id from document where status in ('indexed', 'failed') order by created_at`,
    );
    let reindexed = 0;
    let failed = 0;
    await job.progress(0, rows.length);
    for (const [i, row] of rows.entries()) {
      job.signal.throwIfAborted();
      const outcome = await pipeline.run({
        id: job.id,
        data: { documentId: row.id },
        signal: job.signal,
        progress: async () => undefined,
      });
      if ('chunks' in outcome) reindexed++;
      else failed++;
      await job.progress(i + 1, rows.length);
    }
    return { reindexed, failed };
  }
}
