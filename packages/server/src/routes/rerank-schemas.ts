import { z } from 'zod';

/** What search and chat answer of reranking (RAG_RERANK_ENABLED): chat retrieves through search. */
export const rerankOutcomeSchema = z
  .enum(['applied', 'failed'])
  .describe(
    'Only when RAG_RERANK_ENABLED: `applied`, the cross-encoder reordered the fused top RAG_RERANK_CANDIDATES ' +
      '(item scores are its scores, 0 to 1); `failed`, it failed and the fused order stands (the log says why).',
  );
export const rerankTimingSchema = z
  .number()
  .describe('Milliseconds the cross-encoder took; only when RAG_RERANK_ENABLED.');
