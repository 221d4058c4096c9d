import { setTimeout as sleep } from 'node:timers/promises';
import type { GuardedFetch } from '@docqa/plugin-api';

export interface FetcherSettings {
  userAgent: string;
  timeoutMs: number;
  delayMs: number;
  /** Sent as Authorization only to this origin (start_url's): a secret never leaves the site it is for. */
  authHeader: { origin: string; value: string } | undefined;
  /** fetch() that refuses addresses the outbound guard does not allow, checking the one connected to. */
  fetch: GuardedFetch;
}

export interface ConditionalValidators {
  etag?: string | undefined;
  lastModified?: string | undefined;
}

/** A response and the signal that bounds it; read or discard its body. */
export interface FetchedResponse {
  response: Response;
  /** Aborted when the request's time is up or the sync is cancelled; reading the body honours it. */
  signal: AbortSignal;
}

/**
 * fetch() with what a well-behaved crawler adds: its User-Agent, a per-request timeout, a pause
 * between requests to the same host (delay_ms, raised by robots.txt's Crawl-delay), the auth header
 * for the site only, conditional request headers, and no automatic redirects (the crawler checks
 * each hop against the site and robots.txt itself, and the guarded fetch checks its address).
 */
export class PoliteFetcher {
  private readonly lastRequestAt = new Map<string, number>();
  private readonly minimumDelayByHost = new Map<string, number>();

  constructor(private readonly settings: FetcherSettings) {}

  /** robots.txt's Crawl-delay for a host, in milliseconds: a floor under delay_ms. */
  setMinimumDelay(host: string, delayMs: number): void {
    this.minimumDelayByHost.set(host, delayMs);
  }

  async get(
    url: URL,
    signal: AbortSignal,
    validators: ConditionalValidators = {},
    accept = '*/*',
  ): Promise<FetchedResponse> {
    await this.waitForTurn(url.host, signal);
    const headers: Record<string, string> = { 'user-agent': this.settings.userAgent, accept };
    if (validators.etag) headers['if-none-match'] = validators.etag;
    if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
    if (this.settings.authHeader && url.origin === this.settings.authHeader.origin)
      headers.authorization = this.settings.authHeader.value;
    // One signal for both causes: the sync's cancellation and this request's time limit. It stays
    // attached to the body stream, so a server that sends headers and then stalls is cut off too.
    const requestSignal = AbortSignal.any([signal, AbortSignal.timeout(this.settings.timeoutMs)]);
    try {
      const response = await this.settings.fetch(url, { headers, redirect: 'manual', signal: requestSignal });
      return { response, signal: requestSignal };
    } finally {
      this.lastRequestAt.set(url.host, Date.now());
    }
  }

  private async waitForTurn(host: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const delay = Math.max(this.settings.delayMs, this.minimumDelayByHost.get(host) ?? 0);
    const last = this.lastRequestAt.get(host);
    if (last === undefined || delay === 0) return;
    const wait = last + delay - Date.now();
    if (wait > 0) await sleep(wait, undefined, { signal });
  }
}

/** Reads a response body as an async iterable of bytes (it is a web ReadableStream). */
export async function* bodyChunks(response: Response): AsyncIterable<Uint8Array> {
  if (!response.body) return;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Reads a small text body (robots.txt, a sitemap) with a size cap. */
export async function readText(response: Response, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of bodyChunks(response)) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`${response.url || 'response'} is larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Drops a body we do not want, so that the connection can be reused. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
