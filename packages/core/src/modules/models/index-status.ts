import type { Db, VectorStoreProvider } from '@docqa/plugin-api';
import type { CurrentModels, IndexStatus, IndexStatusService } from './contract.js';

/**
 * Whether the index matches the embedding model in use. Vectors are stored per embedding space
 * (model and dimensions), so an old model's vectors are never compared with the new one's; they
 * only stop counting, and this says how much is missing.
 */
export class DatabaseIndexStatus implements IndexStatusService {
  constructor(
    private readonly db: Db,
    private readonly models: CurrentModels,
    private readonly vectorStore: VectorStoreProvider | undefined,
  ) {}

  async read(): Promise<IndexStatus> {
    const { rows } = await this.db.query<{ n: string }>('select count(*) as n from chunk');
    const chunks = Number(rows[0]?.n ?? 0);
    const embedder = this.models.embedder();
    if (!embedder || !this.vectorStore) return { chunks, embedded_chunks: 0, stale: false, embedding_space: null };
    const embedded = await this.vectorStore.count(embedder.space);
    return {
      chunks,
      embedded_chunks: embedded,
      stale: embedded < chunks,
      embedding_space: { model: embedder.space.model, dimensions: embedder.space.dimensions },
    };
  }
}
