/**
 * A vector store keeps one embedding per chunk, tagged with the embedding space (model and
 * dimensions) that produced it, so that vectors of different models never mix in one query.
 */
export interface EmbeddingSpace {
  model: string;
  dimensions: number;
}

export interface VectorRecord {
  chunkId: string;
  documentId: string;
  embedding: Float32Array | readonly number[];
}

export interface VectorQuery {
  embedding: Float32Array | readonly number[];
  topK: number;
  /** Restrict to these documents (metadata and access filters are resolved to ids upstream). */
  documentIds?: readonly string[];
}

export interface VectorHit {
  chunkId: string;
  documentId: string;
  /** Cosine similarity in [-1, 1]; higher is closer. */
  score: number;
}

export interface VectorStoreProvider {
  readonly capabilities: { approximate: boolean; documentFilter: boolean };
  upsert(space: EmbeddingSpace, records: readonly VectorRecord[]): Promise<void>;
  query(space: EmbeddingSpace, query: VectorQuery): Promise<VectorHit[]>;
  deleteDocuments(documentIds: readonly string[]): Promise<number>;
  count(space?: EmbeddingSpace): Promise<number>;
  /** Spaces that hold vectors, with their counts: a switched model leaves the old one stale. */
  spaces(): Promise<Array<EmbeddingSpace & { count: number }>>;
  dropSpace(space: EmbeddingSpace): Promise<void>;
  /**
   * Resolves when the database holding the vectors answers, rejects otherwise: `/api/health`
   * reports it as its `vectors` check. Optional; a store without it is reported `ok`.
   */
  ping?(): Promise<void>;
}
