import type { EmbeddingSpace } from './vector-store.js';

export interface EmbeddingProvider {
  readonly space: EmbeddingSpace;
  /** Longest input in tokens; longer text is truncated by the provider. */
  readonly maxInputTokens: number;
  /**
   * Where a local model computes (`cpu`, `cuda`, `vulkan`, `metal`); left out by providers that call
   * an API. Reported by GET /api/model-info.
   */
  readonly device?: string;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}
