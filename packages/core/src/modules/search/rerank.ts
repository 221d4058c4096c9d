import { performance } from 'node:perf_hooks';
import type { Logger, RerankerProvider } from '@docqa/plugin-api';
import type { RerankOutcome, SearchItem } from './contract.js';

export interface RerankSettings {
  reranker: RerankerProvider;
  /** RAG_RERANK_CANDIDATES: how many fused candidates the cross-encoder scores (at least top_k are). */
  candidates: number;
  logger: Logger;
}

export interface Reranked {
  items: SearchItem[];
  outcome: RerankOutcome;
  /** Milliseconds the reranker took, failed or not. */
  ms: number;
}

/** How deep fusion must go so that the reranker sees its candidates. */
export function rerankDepth(settings: RerankSettings, topK: number): number {
  return Math.max(settings.candidates, topK);
}

/**
 * Reorders the fused candidates by the cross-encoder's scores, which replace the fused ones. A
 * reranker that fails (or answers the wrong number of scores) never fails the search: the fused
 * order stands, the log says why, and `outcome` says `failed` so the answer shows it.
 */
export async function rerankItems(settings: RerankSettings, query: string, items: SearchItem[]): Promise<Reranked> {
  const started = performance.now();
  try {
    const scores = await settings.reranker.rank(
      query,
      items.map((item) => item.text),
    );
    if (scores.length !== items.length || !scores.every(Number.isFinite))
      throw new Error(
        `the reranker answered ${scores.length} scores for ${items.length} texts, or a score that is not a number`,
      );
    const reordered = items
      .map((item, index) => ({ item: { ...item, score: scores[index] ?? 0 }, index }))
      // Equal scores keep the fused order, so the result does not depend on the sort's stability.
      .sort((a, b) => b.item.score - a.item.score || a.index - b.index)
      .map(({ item }) => item);
    return { items: reordered, outcome: 'applied', ms: performance.now() - started };
  } catch (error) {
    settings.logger.warn(
      { err: error, model: settings.reranker.model, candidates: items.length },
      'reranking failed; the search answers in the fused order',
    );
    return { items, outcome: 'failed', ms: performance.now() - started };
  }
}
