import { providerTokens } from '@docqa/plugin-api';
import type { Kernel } from '@docqa/kernel';
import { currentEmbedder } from './registry.js';

export interface IndexStatus {
  chunks: number;
  /** Chunks with a vector of the embedding model in use now. */
  embedded_chunks: number;
  /**
   * True when chunks lack a vector of the current embedding model, as after switching models:
   * dense retrieval then sees only the embedded part until a rebuild re-embeds the rest.
   */
  stale: boolean;
  embedding_space: { model: string; dimensions: number } | null;
}

/**
 * Whether the index matches the embedding model in use. Vectors are stored per embedding space
 * (model and dimensions), so an old model's vectors are never compared with the new one's; they
 * only stop counting, and this says how much is missing.
 */
export async function indexStatus(kernel: Kernel): Promise<IndexStatus> {
  const { rows } = await kernel.db.query<{ n: string }>('select count(*) as n from chunk');
  const chunks = Number(rows[0]?.n ?? 0);
  const embedder = currentEmbedder(kernel);
  if (!embedder || !kernel.container.has(providerTokens.vectorStore))
    return { chunks, embedded_chunks: 0, stale: false, embedding_space: null };
  const embedded = await kernel.resolve(providerTokens.vectorStore).count(embedder.space);
  return {
    chunks,
    embedded_chunks: embedded,
    stale: embedded < chunks,
    embedding_space: { model: embedder.space.model, dimensions: embedder.space.dimensions },
  };
}
