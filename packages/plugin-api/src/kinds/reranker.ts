/**
 * A cross-encoder that scores how well each text answers a query, reading both together: slower
 * than comparing embeddings, so search asks it only about the fused top candidates.
 */
export interface RerankerProvider {
  /** The model's name, for logs and GET /api/model-info. */
  readonly model: string;
  /**
   * One score per text, in the order given; higher is more relevant. Scores of one call compare
   * with each other, not necessarily with another model's. Rejects with the signal's reason once
   * it is aborted.
   */
  rank(query: string, texts: readonly string[], signal?: AbortSignal): Promise<number[]>;
}
