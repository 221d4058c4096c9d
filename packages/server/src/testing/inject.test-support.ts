import type { RequestListener } from 'node:http';
import inject from 'light-my-request';

/** The host injected requests name; nothing listens there, the app is called directly. */
export const injectedBase = 'http://docqa.test';

/**
 * `fetch` for an HTTP test that needs the app and not a socket: each request goes through the
 * express app's request listener in this process (light-my-request), and the answer comes back as
 * a WHATWG Response. Bodies are buffered, so it suits JSON routes, not streams (SSE tests still
 * listen on a port).
 */
export function injectingFetch(app: RequestListener): (url: string, init?: RequestInit) => Promise<Response> {
  isolateExpressPrototypes(app);
  return async (url, init = {}) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = init.body;
    if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array))
      throw new TypeError('injectingFetch sends string or byte bodies only');
    const answer = await inject(app, {
      method: (init.method ?? 'GET') as 'GET',
      url,
      headers,
      ...(body === undefined || body === null ? {} : { payload: Buffer.from(body) }),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(one));
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304 || init.method === 'HEAD';
    return new Response(empty ? null : answer.rawPayload, { status: answer.statusCode, headers: responseHeaders });
  };
}

/**
 * light-my-request recognises an express app and re-parents the prototypes of its request and
 * response objects onto its own fakes. Those are express's module-wide prototypes, shared by every
 * app in the process, so every later real server of the test run would answer through the fakes
 * (measured: the next suite's express responses failed in light-my-request's writeHead). The app
 * gets private copies first, so only this app's requests and responses change.
 */
function isolateExpressPrototypes(app: RequestListener): void {
  const express = app as unknown as { request?: object; response?: object };
  for (const key of ['request', 'response'] as const) {
    const perApp = express[key];
    if (!perApp) continue;
    const shared = Object.getPrototypeOf(perApp) as object;
    const copy = Object.create(Object.getPrototypeOf(shared) as object, Object.getOwnPropertyDescriptors(shared));
    Object.setPrototypeOf(perApp, copy);
  }
}
