import type { RequestListener } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { z } from 'zod';
import { DocqaError } from '@docqa/plugin-api';
import type { Kernel } from '@docqa/kernel';
import { checkAccess, requiredKeyScope, type Authenticator } from './access.js';
import { createServices, type AppServices } from './services.js';
import { createJwtAuthenticator, withApiKeys } from './authenticator.js';
import { apiKeyRateLimit } from './reset-rate-limit.js';
import { errorHandler, refuseNulCharacters, sendError, validationError } from './errors.js';
import { cancelStatementsOnDisconnect } from './request-context.js';
import { requestPipeline, type PipelineOptions } from './request-pipeline.js';
import { fixedAnswerFastPath } from './fast-path.js';
import { expressPath, type AnyRoute, type MiddlewareContext } from './route.js';
import { sendOpenAiError } from './openai-errors.js';
import { sendJson } from './send-json.js';

export interface AppOptions {
  kernel: Kernel;
  routes: readonly AnyRoute[];
  /** Built from the kernel when not given. */
  services?: AppServices;
  /** Bearer tokens of the identity service when not given. */
  authenticator?: Authenticator;
  /** Mounted before the API's 404 (the API reference pages, later the web UI). */
  extras?: Array<(app: express.Express) => void>;
}

function parsePart<T>(schema: z.ZodType<T> | undefined, value: unknown, location: 'params' | 'query' | 'body'): T {
  if (!schema) return value as T;
  refuseNulCharacters(value, location);
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(location, result.error);
  return result.data;
}

/** Reads a JSON body only once access is granted (the order of checks), and only as JSON. */
async function readJsonBody(req: Request, res: Response, parser: express.RequestHandler): Promise<unknown> {
  const length = Number(req.headers['content-length'] ?? 0);
  const hasBody = length > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return {};
  if (!req.is(['application/json', 'application/*+json'])) {
    throw new DocqaError('bad_request', 'Send the request body as JSON (Content-Type: application/json).');
  }
  await new Promise<void>((resolve, reject) =>
    parser(req, res, (error?: unknown) => (error ? reject(error) : resolve())),
  );
  return req.body ?? {};
}

function mountRoute(
  app: express.Express,
  route: AnyRoute,
  kernel: Kernel,
  authenticator: Authenticator,
  jsonParser: express.RequestHandler,
  perApp: MiddlewareContext['perApp'],
): void {
  // Resolved at the route's first request, so an app mounted on a kernel without some module (a
  // test's) still serves the routes whose modules it has.
  let deps: Record<string, unknown> | null = null;
  const keyScope = requiredKeyScope(route);
  const resolveDeps = () =>
    (deps ??= Object.fromEntries(
      Object.entries(route.deps ?? {}).map(([name, token]) => [
        name,
        token.multi ? kernel.resolveAll(token) : kernel.resolve(token),
      ]),
    ));
  app[route.method](
    expressPath(route.path),
    ...(route.middleware?.({ kernel, perApp }) ?? []),
    async (req: Request, res: Response, next: NextFunction) => {
      if (route.cancelOnDisconnect) cancelStatementsOnDisconnect(res);
      try {
        const principal = await checkAccess(kernel, authenticator, req, res, route.access, route.plan, keyScope);
        res.locals.principal = principal;
        const params = parsePart(route.request?.params, req.params, 'params');
        const query = parsePart(route.request?.query, req.query, 'query');
        const body = route.request?.body
          ? parsePart(route.request.body, await readJsonBody(req, res, jsonParser), 'body')
          : undefined;
        const result = await route.handler({
          kernel,
          deps: resolveDeps(),
          params,
          query,
          body,
          principal,
          requestId: String(res.locals.requestId),
          req,
          res,
        });
        if (result === 'handled') return;
        for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
        if (result.body === undefined) res.status(result.status).end();
        else sendJson(res, result.status, result.body);
      } catch (error) {
        if (route.errorFormat === 'openai') sendOpenAiError(req, res, error, kernel.logger);
        else next(error);
      }
    },
  );
}

/** Answers 405 with `Allow` for a known path asked with a method it does not have. */
function mountMethodNotAllowed(app: express.Express, routes: readonly AnyRoute[]): void {
  const methodsByPath = new Map<string, string[]>();
  for (const route of routes) {
    methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method.toUpperCase()]);
  }
  for (const [path, methods] of methodsByPath) {
    const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].join(', ');
    app.all(expressPath(path), (req: Request, res: Response) => {
      res.setHeader('Allow', allow);
      sendError(
        res,
        new DocqaError('method_not_allowed', `${req.method} is not allowed on ${req.path}; use ${allow}.`),
      );
    });
  }
}

function pipelineOptions(kernel: Kernel, services: AppServices): PipelineOptions {
  const values = kernel.config.values;
  return {
    logger: kernel.logger,
    metrics: services.metrics.http,
    statementTimeoutSeconds: values.REQUEST_STATEMENT_TIMEOUT_SECONDS,
    drainLingerMs: values.UPLOAD_DRAIN_SECONDS * 1000,
  };
}

/** The express app of createApp, and the listener a server takes, which answers some requests before it. */
export interface DocqaHandler {
  app: express.Express;
  listener: RequestListener;
}

/**
 * What a server serves: the routes with a fixed answer (GET /api/version) at node:http level
 * (fast-path.ts), through the same request pipeline, and every other request through express.
 */
export function createHandler(options: AppOptions): DocqaHandler {
  const services = options.services ?? createServices(options.kernel);
  const app = createApp({ ...options, services });
  const fastPath = fixedAnswerFastPath(options.routes, pipelineOptions(options.kernel, services));
  return {
    app,
    listener: (req, res) => {
      if (!fastPath(req, res)) app(req, res);
    },
  };
}

export function createApp(options: AppOptions): express.Express {
  const { kernel } = options;
  const values = kernel.config.values;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', values.TRUST_PROXY);
  app.set('etag', false);
  const jsonParser = express.json({
    limit: values.MAX_JSON_BODY,
    strict: true,
    type: ['application/json', 'application/*+json'],
  });

  const services = options.services ?? createServices(kernel);
  // Before every route, so that each request is counted and logged once it ends, with the route it matched.
  app.use(requestPipeline(pipelineOptions(kernel, services)));
  const { tokens, users } = services.identity;
  const jwt = createJwtAuthenticator(tokens, users, values.JWT_SECRET_KEY, values.JWT_ALGORITHM);
  const keyLimit = apiKeyRateLimit(values.API_KEY_RATE_LIMIT, values.API_KEY_RATE_LIMIT_BURST);
  const authenticator = options.authenticator ?? withApiKeys(jwt, services.identity.apiKeys, keyLimit);
  const shared = new Map<symbol, unknown>();
  const perApp = <T>(key: symbol, make: () => T): T => {
    if (!shared.has(key)) shared.set(key, make());
    return shared.get(key) as T;
  };
  for (const route of options.routes) mountRoute(app, route, kernel, authenticator, jsonParser, perApp);
  mountMethodNotAllowed(app, options.routes);
  for (const extra of options.extras ?? []) extra(app);
  // OpenAI clients read errors in OpenAI's shape, an unknown path under its base URL included.
  app.use('/api/openai/v1', (req: Request, res: Response) => {
    const path = req.originalUrl.split('?')[0];
    sendOpenAiError(req, res, new DocqaError('not_found', `There is no ${req.method} ${path}.`), kernel.logger);
  });

  app.use((req: Request, res: Response) => {
    sendError(res, new DocqaError('not_found', `There is no ${req.method} ${req.path}.`));
  });
  app.use(errorHandler(kernel.logger));
  return app;
}
