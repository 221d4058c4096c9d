import { providerTokens, type EmbeddingProvider, type LlmBackend } from '@docqa/plugin-api';
import type { Kernel } from '@docqa/kernel';
import { modelRuntimeOf } from './runtime.js';

/** The chat model chosen with `docqa models use`, when one is loaded; null: the kernel's LLM provider. */
export function switchedChatBackend(kernel: Kernel): LlmBackend | null {
  return modelRuntimeOf(kernel)?.switcher.chatBackend() ?? null;
}

/** The embedder in effect: the one chosen with `docqa models use`, else the configured one, else none. */
export function currentEmbedder(kernel: Kernel): EmbeddingProvider | null {
  const switched = modelRuntimeOf(kernel)?.switcher.embedder();
  if (switched) return switched;
  return kernel.container.has(providerTokens.embedder) ? kernel.resolve(providerTokens.embedder) : null;
}
