import type { Agent, RequestInit as UndiciRequestInit } from 'undici';
import { DocqaError } from '../errors.js';
import type { OutboundGuard } from './outbound-guard.js';

/** fetch() whose every connection, and every redirect hop, the guard has checked. */
export type GuardedFetch = (url: URL | string | Request, init?: RequestInit) => Promise<Response>;

export interface GuardedFetchOptions {
  /** Redirects followed when init.redirect is 'follow' (the default); each hop is checked. */
  maxRedirects?: number;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * A fetch() for URLs a user chose. undici's fetch (the one Node's global fetch is built on, same
 * major version) with an Agent whose connections resolve through `guard.lookup`, so the address
 * connected to is the address checked. Redirects are never followed by undici: with the default
 * `redirect: 'follow'` they are followed here, each hop checked like the first; with 'manual' the
 * 3xx answer is returned for the caller to check.
 */
export function createGuardedFetch(guard: OutboundGuard, options: GuardedFetchOptions = {}): GuardedFetch {
  const maxRedirects = options.maxRedirects ?? 10;
  // Loaded with the first request: a process that never fetches a user's URL never loads undici.
  let undici: Promise<{ fetch: typeof import('undici').fetch; agent: Agent }> | undefined;
  const load = () =>
    (undici ??= import('undici').then(({ Agent, fetch }) => ({
      fetch,
      agent: new Agent({ connect: { lookup: guard.lookup } }),
    })));

  return async (input, given = {}) => {
    const { fetch, agent } = await load();
    // A Request (as fetch() accepts, and clients such as openai's may pass) as a URL and its init.
    const url = input instanceof Request ? input.url : input;
    const init: RequestInit =
      input instanceof Request
        ? { method: input.method, headers: input.headers, body: input.body, signal: input.signal, ...given }
        : given;
    if (init.body instanceof ReadableStream) Object.assign(init, { duplex: 'half' });
    let target = new URL(url);
    let request: RequestInit = init;
    for (let hop = 0; ; hop += 1) {
      // Checked before connecting too: an address literal never goes through `lookup`, and a refusal
      // reads better as the DocqaError itself than as fetch()'s "fetch failed" with a cause.
      await guard.checkUrl(target);
      const fetchInit = { ...request, redirect: 'manual', dispatcher: agent } as unknown as UndiciRequestInit;
      const response = (await fetch(target, fetchInit)) as unknown as Response;
      const location = response.headers.get('location');
      if (init.redirect === 'manual' || !redirectStatuses.has(response.status) || !location) return response;
      await response.body?.cancel().catch(() => undefined);
      if (init.redirect === 'error') {
        throw new DocqaError('unavailable', `${target.href} redirected to ${location}; redirects are not allowed here`);
      }
      if (hop >= maxRedirects) {
        throw new DocqaError('unavailable', `${new URL(url).href} redirected more than ${maxRedirects} times`);
      }
      // As browsers do: 303, and 301/302 after a POST, become a GET without a body.
      const method = (request.method ?? 'GET').toUpperCase();
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        const { body: _body, ...rest } = request;
        request = { ...rest, method: 'GET' };
      }
      const next = new URL(location, target);
      // Credentials are for the origin they were given to.
      if (next.origin !== target.origin && request.headers) {
        request = { ...request, headers: withoutAuthorization(request.headers) };
      }
      target = next;
    }
  };
}

function withoutAuthorization(headers: NonNullable<RequestInit['headers']>): Headers {
  const copy = new Headers(headers);
  copy.delete('authorization');
  copy.delete('cookie');
  return copy;
}
