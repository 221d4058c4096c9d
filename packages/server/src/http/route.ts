import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import type { DepsMap, Plan, ResolvedDeps } from '@docqa/plugin-api';
import type { Kernel } from '@docqa/kernel';
import type { Principal as Caller } from '@docqa/core/identity';
import type { ApiKeyGrant, KeyScope } from '@docqa/core/identity';

/** The spec's access levels, lowest first. `public` needs no token. */
export type Access = 'public' | 'required' | 'editor' | 'admin';

export type { KeyScope };

/**
 * The caller of a route: the identity module's domain type (the role as stored now, read at each
 * request), and the API key the request came with, if it came with one rather than an access token.
 */
export interface Principal extends Caller {
  apiKey?: ApiKeyGrant;
}

export interface RouteContext<P, Q, B, D = Record<string, never>> {
  kernel: Kernel;
  /** The modules' services the route declared in `deps`: a route reaches no module it does not name. */
  deps: D;
  params: P;
  query: Q;
  body: B;
  principal: Principal | null;
  requestId: string;
  req: Request;
  res: Response;
}

/** A handler answers with a status and a JSON body, or takes over `res` (streams, files) and answers `handled`. */
export type RouteResult = { status: number; body?: unknown; headers?: Record<string, string> } | 'handled';

/** A route's answer that depends on nothing in the request (route.ts, `fixedAnswer`). */
export interface FixedAnswer {
  status: number;
  body: unknown;
}

/** What a route's middleware is built from, once per app. */
export interface MiddlewareContext {
  kernel: Kernel;
  /**
   * One value per app for `key`, made by the first route that asks: middleware several routes share
   * (one rate limit for both password-reset endpoints), never shared by two apps in one process.
   */
  perApp<T>(key: symbol, make: () => T): T;
}

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
}

export interface RouteDefinition<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  D extends DepsMap = DepsMap,
> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path syntax: `/api/jobs/{id}`. */
  path: string;
  /** The one place a route's access level is declared; enforced before anything else runs. */
  access: Access;
  /** Lowest plan allowed, checked after the role and before ids and bodies. */
  plan?: Plan;
  /**
   * The scope an API key needs here; `none` refuses keys (managing keys, passwords, MFA: an access
   * token only). Left out: derived from the access level and method (see requiredKeyScope).
   */
  keyScope?: KeyScope | 'none';
  /** `openai`: failures answer in OpenAI's error shape (the OpenAI-compatible API). */
  errorFormat?: 'openai';
  /**
   * Cancel the database statement running when the client goes away, and start no other: for work
   * whose result is useless once nobody reads it. GET and HEAD always; other methods only when they
   * say so (search, chat), since a write that stops halfway may leave half of what it writes.
   */
  cancelOnDisconnect?: boolean;
  tag: string;
  summary: string;
  description?: string;
  operationId: string;
  request?: { params?: P; query?: Q; body?: B };
  /** Runs before anything else (rate limits); built once when the route is mounted. */
  middleware?: (context: MiddlewareContext) => RequestHandler[];
  responses: Record<number, ResponseSpec>;
  /**
   * The same answer for every request while the process runs (GET /api/version): node:http writes
   * it before express sees the request (fast-path.ts), through the same request pipeline. Only for
   * public GET routes without params, query, body, plan or middleware; made at the first request and
   * kept. `handler` must give the same answer: express still serves the path's other spellings
   * (`/API/version/`) and the requests this function fails for.
   */
  fixedAnswer?: () => FixedAnswer;
  /** What the route needs from modules, by token; resolved once, at the route's first request. */
  deps?: D;
  handler(
    context: RouteContext<z.output<P>, z.output<Q>, z.output<B>, ResolvedDeps<D>>,
  ): Promise<RouteResult> | RouteResult;
}

export type AnyRoute = RouteDefinition<z.ZodType, z.ZodType, z.ZodType>;

export function defineRoute<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  D extends DepsMap = Record<string, never>,
>(route: RouteDefinition<P, Q, B, D>): AnyRoute {
  return route as unknown as AnyRoute;
}

/** `/api/jobs/{id}` → `/api/jobs/:id` for express. */
export function expressPath(path: string): string {
  return path.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, ':$1');
}
