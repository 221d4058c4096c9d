import { expect } from 'chai';
import { DocqaError, type ExtractorInput } from '@docqa/plugin-api';
import { ExtractionPool } from './extraction-pool.js';

const extractor = new URL('./test-extractor.test-support.js', import.meta.url).href;
const input = (filename: string): ExtractorInput => ({
  path: '/nonexistent',
  filename,
  mediaType: 'text/plain',
  options: { ocr: false, ocrLanguages: [], tables: false },
});

describe('ExtractionPool', function () {
  this.timeout(120_000);

  it('fails a document over the worker heap limit alone, naming the limit, and replaces the worker', async function () {
    const pool = new ExtractionPool(1, { heapLimitMb: 128 });
    try {
      const signal = new AbortController().signal;
      // The worker shares this process's resident memory; sampled while it runs, the growth shows the cap
      // held. Measured against the start, since a full test run has already grown the process.
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      const failure = await pool
        .extract(extractor, input('hog'), signal)
        .then(
          () => undefined,
          (error: unknown) => error,
        )
        .finally(() => clearInterval(sampler));
      expect(DocqaError.is(failure, 'file_too_large'), String(failure)).to.equal(true);
      expect((failure as DocqaError).message).to.equal(
        'hog needs more memory to read than an extraction worker may use ' +
          '(INDEX_EXTRACTION_WORKER_HEAP_MB, 128 MB); it was given up.',
      );
      // The process grew by about the worker's cap, not without bound: the worker's heap was capped.
      expect(peak - baseline, 'growth of resident memory').to.be.below(512 * 1024 * 1024);
      const next = await pool.extract(extractor, input('small.txt'), signal);
      expect(next.blocks[0]?.text).to.equal('read small.txt');
    } finally {
      await pool.close();
    }
  });
});
