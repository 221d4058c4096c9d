import type { BodyStore, StoredBody } from './body-store.js';
import { BodyTooLargeError } from './body-store.js';
import { bodyChunks, discardBody, type ConditionalValidators, type PoliteFetcher } from './polite-fetcher.js';
import { isDocumentResponse } from './media-types.js';
import { describeFetchError } from './robots.js';

export type PageOutcome =
  | { kind: 'unchanged' }
  | { kind: 'redirect'; location: URL }
  | { kind: 'gone'; status: number }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; reason: string }
  | { kind: 'fetched'; body: StoredBody; contentType: string | null; etag?: string; lastModified?: string };

/**
 * Fetches one URL and sorts the answer into what the crawler does with it. Transient failures
 * (5xx, 429, timeouts, resets) are `failed`, not `gone`: a page must not leave the index because
 * the server had a bad minute.
 */
export async function fetchPage(
  url: URL,
  validators: ConditionalValidators,
  fetcher: PoliteFetcher,
  bodies: BodyStore,
  signal: AbortSignal,
): Promise<PageOutcome> {
  try {
    const { response, signal: requestSignal } = await fetcher.get(url, signal, validators);
    const { status } = response;
    if (status === 304) {
      await discardBody(response);
      // A 304 to an unconditional request would be a server bug; treat it as a failure, not as "unchanged".
      return validators.etag || validators.lastModified
        ? { kind: 'unchanged' }
        : { kind: 'failed', reason: 'HTTP 304 without a conditional request' };
    }
    if (status >= 300 && status < 400) {
      await discardBody(response);
      const location = response.headers.get('location');
      if (!location) return { kind: 'failed', reason: `HTTP ${status} without Location` };
      return { kind: 'redirect', location: new URL(location, url) };
    }
    if (status === 404 || status === 410) {
      await discardBody(response);
      return { kind: 'gone', status };
    }
    if (status !== 200) {
      await discardBody(response);
      return status >= 500 || status === 429 || status === 408
        ? { kind: 'failed', reason: `HTTP ${status}` }
        : { kind: 'gone', status };
    }
    const contentType = response.headers.get('content-type');
    if (!isDocumentResponse(url, contentType)) {
      await discardBody(response);
      return { kind: 'skipped', reason: `media type ${contentType ?? 'unknown'}` };
    }
    const body = await bodies.store(bodyChunks(response), requestSignal);
    if (body.size === 0) return { kind: 'skipped', reason: 'empty body' };
    const etag = response.headers.get('etag') ?? undefined;
    const lastModified = response.headers.get('last-modified') ?? undefined;
    return { kind: 'fetched', body, contentType, ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof BodyTooLargeError) return { kind: 'skipped', reason: error.message };
    return { kind: 'failed', reason: describeFetchError(error) };
  }
}
