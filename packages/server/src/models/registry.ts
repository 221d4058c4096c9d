import { providerTokens, type EmbeddingProvider, type LlmBackend } from '@docqa/plugin-api';
import type { Kernel } from '@docqa/kernel';
import type { ModelRuntime } from './runtime.js';

/**
 * Which kernel runs which model runtime. A lookup rather than a constructor argument, so the chat,
 * search and ingestion code asks "is there a switched model?" in one line without new wiring, and
 * a kernel without a runtime (tests, tools) keeps the models of its configuration.
 */
const runtimes = new WeakMap<Kernel, ModelRuntime>();

export function registerModelRuntime(kernel: Kernel, runtime: ModelRuntime): void {
  runtimes.set(kernel, runtime);
}

export function unregisterModelRuntime(kernel: Kernel, runtime: ModelRuntime): void {
  if (runtimes.get(kernel) === runtime) runtimes.delete(kernel);
}

export function modelRuntimeOf(kernel: Kernel): ModelRuntime | undefined {
  return runtimes.get(kernel);
}

/** The chat model chosen with `docqa models use`, when one is loaded; null: the kernel's LLM provider. */
export function switchedChatBackend(kernel: Kernel): LlmBackend | null {
  return runtimes.get(kernel)?.switcher.chatBackend() ?? null;
}

/** The embedder in effect: the one chosen with `docqa models use`, else the configured one, else none. */
export function currentEmbedder(kernel: Kernel): EmbeddingProvider | null {
  const switched = runtimes.get(kernel)?.switcher.embedder();
  if (switched) return switched;
  return kernel.container.has(providerTokens.embedder) ? kernel.resolve(providerTokens.embedder) : null;
}
