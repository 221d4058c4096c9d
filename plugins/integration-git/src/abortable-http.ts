import nodeHttp from 'isomorphic-git/http/node';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import type { OutboundGuard } from '@docqa/plugin-api';

/** Redirects of a GET (info/refs) followed, each hop checked by the outbound guard. */
const maxRedirects = 5;

/**
 * isomorphic-git's node HTTP client, guarded and abortable. Every connection resolves through the
 * outbound guard's lookup (the address connected to is checked) and every URL, redirect targets
 * included, is checked first, so a repository URL or a redirect cannot reach loopback, the private
 * network or a metadata endpoint the plugin's outboundAllow option does not allow. simple-get's own
 * redirect following is off for that reason: redirects are followed here.
 *
 * isomorphic-git's client takes no AbortSignal. This wrapper makes a clone or fetch stop promptly
 * anyway: it refuses to start a request once the signal is aborted, stops waiting for a pending
 * response, and fails the next body chunk, which makes isomorphic-git give up the transfer.
 */
export function abortableHttp(signal: AbortSignal, guard: OutboundGuard): HttpClient {
  return {
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      signal.throwIfAborted();
      const response = await raceAbort(guardedRequest(request, guard), signal);
      return { ...response, body: response.body ? abortableBody(response.body, signal) : response.body };
    },
  };
}

async function guardedRequest(request: GitHttpRequest, guard: OutboundGuard): Promise<GitHttpResponse> {
  let current = request;
  for (let hop = 0; ; hop += 1) {
    await guard.checkUrl(current.url);
    const fetchOptions = { lookup: guard.lookup, followRedirects: false };
    const response = await nodeHttp.request({ ...current, fetchOptions });
    const location = response.headers?.location;
    const isRedirect = response.statusCode >= 300 && response.statusCode < 400 && location !== undefined;
    // A POST (upload-pack) body is a one-time stream: it cannot be sent again to another URL.
    if (!isRedirect || (current.method ?? 'GET').toUpperCase() !== 'GET' || hop >= maxRedirects) {
      return { ...response, url: response.url ?? current.url };
    }
    for await (const _chunk of response.body ?? []) {
      // Drained so that the connection is released.
    }
    const next = new URL(location, current.url);
    // Credentials are for the origin they were given to.
    const sameOrigin = next.origin === new URL(current.url).origin;
    const headers = sameOrigin ? current.headers : withoutAuthorization(current.headers);
    current = { ...current, url: next.href, ...(headers ? { headers } : {}) };
  }
}

function withoutAuthorization(headers: GitHttpRequest['headers']): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).filter(([name]) => name.toLowerCase() !== 'authorization'));
}

async function* abortableBody(
  body: AsyncIterableIterator<Uint8Array>,
  signal: AbortSignal,
): AsyncIterableIterator<Uint8Array> {
  for await (const chunk of body) {
    signal.throwIfAborted();
    yield chunk;
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
