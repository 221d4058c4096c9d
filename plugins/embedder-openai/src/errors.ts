import { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { DocqaError } from '@docqa/plugin-api';

/**
 * Turns a failure of the embeddings API into a DocqaError that says what to fix. The key never
 * appears: a server may echo it (OpenAI prints a masked one), so API messages are scrubbed and
 * the original error, which carries that message, is not kept as the cause.
 */
export function toDocqaError(
  error: unknown,
  endpoint: string,
  apiKey: string,
  signal: AbortSignal | undefined,
): unknown {
  if (signal?.aborted && (error instanceof APIUserAbortError || isAbortError(error))) return signal.reason;
  if (error instanceof DocqaError) return error;
  if (error instanceof APIConnectionTimeoutError) {
    return new DocqaError(
      'unavailable',
      `the embedding API at ${endpoint} did not answer in time; check that it is up or raise the option timeoutSeconds`,
    );
  }
  if (error instanceof APIError && error.status !== undefined) {
    const detail = scrub(error.message, apiKey);
    const hint =
      error.status === 401 || error.status === 403
        ? 'check the API key (HOSTED_API_KEY / the option apiKey)'
        : error.status === 404
          ? 'check the option model (or the Azure deployment) and the base URL'
          : error.status === 429
            ? 'the API is rate limiting or out of quota; retry later'
            : 'see the API message';
    return new DocqaError(
      'unavailable',
      `the embedding API at ${endpoint} refused the request (HTTP ${error.status}): ${hint}: ${detail}`,
    );
  }
  if (error instanceof APIError) {
    // A connection failure carries no server text, so its cause is safe to keep.
    return new DocqaError(
      'unavailable',
      `cannot reach the embedding API at ${endpoint}: ${scrub(messageOf(error.cause ?? error), apiKey)}`,
      { cause: error },
    );
  }
  return new DocqaError('unavailable', `the embedding API at ${endpoint} failed: ${scrub(messageOf(error), apiKey)}`);
}

/** Removes the key, and anything shaped like an OpenAI key, from a text. */
export function scrub(text: string, apiKey: string): string {
  return text
    .split(apiKey)
    .join('***')
    .replace(/\bsk-[A-Za-z0-9_*\-]{4,}/g, 'sk-***');
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
