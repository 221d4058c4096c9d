import type { EmbeddingSpace } from './vector-store.js';

export interface EmbeddingProvider {
  readonly space: EmbeddingSpace;
  /** Longest input in tokens; longer text is truncated by the provider. */
  readonly maxInputTokens: number;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}
