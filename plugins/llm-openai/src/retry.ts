import { APIConnectionError, APIError } from 'openai';

/** The package's backoff: half a second, doubling, at most eight, with a quarter of jitter. */
const initialRetryDelayMs = 500;
const maxRetryDelayMs = 8_000;
/** A server asking for a longer wait than this is better reported than waited for. */
const longestRetryAfterMs = 60_000;

/**
 * Whether asking again may help. The caller only asks while no piece of the answer was passed on:
 * after that a retry would repeat text the user already has.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true; // refused, reset, per-attempt timeout
  if (error instanceof APIError) {
    if (error.status === undefined) return false; // an error event in a stream the server chose to send
    const shouldRetry = error.headers?.get('x-should-retry');
    if (shouldRetry === 'true' || shouldRetry === 'false') return shouldRetry === 'true';
    return error.status === 408 || error.status === 409 || error.status === 429 || error.status >= 500;
  }
  // The stream broke before its first piece (undici's "terminated", a reset socket).
  return (
    error instanceof TypeError ||
    (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('E'))
  );
}

/** How long to wait before retry number `retry` (from 1): what the server asked for, else backoff. */
export function retryDelayMs(retry: number, error: unknown): number {
  const asked = error instanceof APIError ? retryAfterMs(error.headers) : undefined;
  if (asked !== undefined) return asked;
  const backoff = Math.min(initialRetryDelayMs * 2 ** (retry - 1), maxRetryDelayMs);
  return backoff * (1 - Math.random() * 0.25);
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  const milliseconds = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  const seconds = Number.parseFloat(headers?.get('retry-after') ?? '');
  const asked = Number.isFinite(milliseconds) ? milliseconds : Number.isFinite(seconds) ? seconds * 1000 : undefined;
  return asked !== undefined && asked >= 0 && asked <= longestRetryAfterMs ? asked : undefined;
}
