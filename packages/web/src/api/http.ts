import { session } from './session';
import type { TokenPair } from './types';

/** A failed request: the API's `{detail, code}` body with the status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

export async function errorFrom(res: Response): Promise<ApiError> {
  let body: Record<string, unknown> = {};
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  const detail = typeof body.detail === 'string' ? body.detail : `The server answered ${res.status} ${res.statusText}.`;
  return new ApiError(res.status, typeof body.code === 'string' ? body.code : 'http_error', detail, body);
}

let refreshing: Promise<boolean> | null = null;

/** Exchanges the refresh token once for all callers waiting on an expired access token. */
export function refreshTokens(): Promise<boolean> {
  refreshing ??= (async () => {
    const refreshToken = session.tokens?.refresh_token;
    if (!refreshToken) return false;
    const res = await fetch('/api/auth/refresh', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: refreshToken }),
    });
    if (!res.ok) {
      session.clear();
      return false;
    }
    session.set((await res.json()) as TokenPair);
    return true;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export function withQuery(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * fetch with the bearer token; an expired access token is refreshed once and the request sent again.
 * Answers the Response as it is (streams read it themselves).
 */
export async function authorizedFetch(path: string, options: RequestOptions = {}): Promise<Response> {
  const send = () => {
    const headers: Record<string, string> = { ...options.headers };
    const token = session.tokens?.access_token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (options.body instanceof FormData || options.body instanceof Blob) body = options.body;
    else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    return fetch(withQuery(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: options.signal,
    });
  };
  let res = await send();
  if (res.status === 401 && session.tokens) {
    const code = (await res
      .clone()
      .json()
      .catch(() => ({}))) as { code?: string };
    if (code.code === 'token_expired' && (await refreshTokens())) res = await send();
    else if (code.code !== 'invalid_credentials') session.clear();
  }
  return res;
}

/** A JSON request: answers the parsed body (undefined for 204), or throws ApiError. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const res = await authorizedFetch(path, { ...options, headers: { accept: 'application/json', ...options.headers } });
  if (!res.ok) throw await errorFrom(res);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A readable sentence for any error, for alerts. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'plan_required')
      return `${error.message} (needs the ${String(error.body.required_plan ?? 'a higher')} plan)`;
    return error.message;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
