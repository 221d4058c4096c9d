import type { GuardedFetch } from '@docqa/plugin-api';
import type { LlmOpenAiOptions } from './config.js';

/** What the server says about the model it serves; null fields: it did not say. */
export interface ServerModel {
  /** The model's name as the server gives it (llama.cpp: the file name, or its --alias). */
  model: string | null;
  /** Tokens one request may use. */
  contextLength: number | null;
}

/** How long one metadata request may take: start-up waits for it, so a silent server must not hold it long. */
const requestTimeoutMs = 5_000;

/**
 * Reads the served model's context window. llama.cpp's server (`backend: 'local'`): GET /props
 * `default_generation_settings.n_ctx` is what one request (one slot) may use; without it, the
 * model entry of GET /v1/models, whose `meta.n_ctx` (newer servers) or `meta.n_ctx_train` (the
 * training context) is the next best. Other OpenAI-compatible APIs: the entry of GET /v1/models
 * named like the model, with vLLM's `max_model_len` or the `context_length` of OpenRouter and
 * others. OpenAI's own entries carry no context, so it stays unknown there. Null: the server
 * could not be asked (down, still loading, refused); the caller keeps what it knew.
 */
export async function readServerModel(
  fetch: GuardedFetch,
  options: LlmOpenAiOptions,
  baseUrl: string,
): Promise<ServerModel | null> {
  const base = baseUrl.replace(/\/+$/, '');
  const get = async (url: string): Promise<unknown> => {
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
      signal: AbortSignal.timeout(Math.min(requestTimeoutMs, options.timeoutSeconds * 1000)),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    return response.json().catch(() => null);
  };
  try {
    if (options.backend === 'local') {
      // /props sits beside /v1, at the server's root.
      const props = record(await get(`${base.replace(/\/v1$/, '')}/props`));
      const settings = record(props?.['default_generation_settings']);
      const nCtx = positive(settings?.['n_ctx']);
      const path = typeof props?.['model_path'] === 'string' ? fileName(props['model_path']) : null;
      if (nCtx !== null) return { model: path, contextLength: nCtx };
    }
    const list = record(await get(`${base}/models`));
    if (!list) return null;
    const entries = Array.isArray(list['data']) ? list['data'].map(record).filter((entry) => entry !== null) : [];
    // llama.cpp lists the one model it loaded, whatever name a request gives it.
    const entry =
      entries.find((each) => each['id'] === options.model) ??
      (options.backend === 'local' && entries.length === 1 ? entries[0] : undefined);
    if (!entry) return { model: null, contextLength: null };
    const meta = record(entry['meta']);
    const contextLength =
      positive(meta?.['n_ctx']) ??
      positive(meta?.['n_ctx_train']) ??
      positive(entry['max_model_len']) ??
      positive(entry['context_length']);
    const id = typeof entry['id'] === 'string' ? entry['id'] : null;
    return { model: options.backend === 'local' && id ? fileName(id) : id, contextLength };
  } catch {
    return null;
  }
}

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function positive(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

/** `../models/Qwen2.5-1.5B-Instruct-Q4_K_M.gguf` → `Qwen2.5-1.5B-Instruct-Q4_K_M`: llama.cpp names models by path. */
function fileName(path: string): string {
  return (path.split(/[\\/]/).at(-1) ?? path).replace(/\.gguf$/i, '');
}
