import type { IncomingMessage, ServerResponse } from 'node:http';
import { DocqaError } from '@docqa/plugin-api';
import { recordWhenOver, securityHeaders, type PipelineOptions } from './request-pipeline.js';
import { requestIdFor } from './request-id.js';
import { drainUnreadBody } from './unread-body.js';
import { jsonContentType } from './send-json.js';
import { expressPath, type AnyRoute, type FixedAnswer } from './route.js';

interface PreparedAnswer {
  status: number;
  /** Every header as express sends them, as a raw list (names, values); the request's id is its 2nd item. */
  head: string[];
  text: string;
}

interface FixedRoute {
  make: () => FixedAnswer;
  /** Made at the route's first request that asks for it. */
  answer: PreparedAnswer | null;
  whenOver: ReturnType<typeof recordWhenOver>;
}

/** A node:http request listener that answers some requests itself and says whether it did. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * GET and HEAD of the routes with a fixed answer (route.ts, `fixedAnswer`), answered before express:
 * express's request setup and its router's walk over every route cost about ten times what node
 * itself spends on such an answer. The request goes through the pipeline express's requests go
 * through (request-pipeline.ts: id, security headers, metrics, access log, unread-body drain), and
 * the answer is written as the route's express handler writes it (send-json.ts), so nothing a
 * client, the log or the metrics see differs. Only the exact path, with or without a query, is
 * taken; any other spelling express would match (case, a trailing slash, an absolute URL) and a
 * failing `fixedAnswer` are left to express, which answers them as it always has. HEAD is taken
 * because express answers it with its GET route; node leaves the body out.
 */
export function fixedAnswerFastPath(routes: readonly AnyRoute[], options: PipelineOptions): FastPath {
  const byPath = new Map<string, FixedRoute>();
  for (const route of routes) {
    if (!route.fixedAnswer) continue;
    const inputs = route.request ?? route.middleware ?? route.plan;
    if (route.method !== 'get' || route.access !== 'public' || inputs !== undefined || route.path.includes('{')) {
      throw new DocqaError(
        'internal',
        `${route.path}: a fixed answer is for public GET routes without inputs, plan or middleware.`,
      );
    }
    const answered = { route: expressPath(route.path), path: route.path, userId: undefined };
    byPath.set(route.path, {
      make: route.fixedAnswer,
      answer: null,
      whenOver: recordWhenOver(options, () => answered),
    });
  }
  return (req, res) => {
    if (byPath.size === 0 || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const fixed = byPath.get(query < 0 ? url : url.slice(0, query));
    const answer = fixed && answerOf(fixed);
    if (!fixed || !answer) return false;
    const requestId = requestIdFor(req);
    fixed.whenOver(req, res, requestId, null);
    drainUnreadBody(req, res, options.drainLingerMs);
    const head = answer.head.slice();
    head[1] = requestId;
    res.writeHead(answer.status, head);
    res.end(answer.text);
    return true;
  };
}

function answerOf(fixed: FixedRoute): FixedRoute['answer'] {
  if (fixed.answer) return fixed.answer;
  try {
    const { status, body } = fixed.make();
    const text = JSON.stringify(body);
    const length = String(Buffer.byteLength(text));
    const head = ['X-Request-Id', '', ...securityHeaders, 'Content-Type', jsonContentType, 'Content-Length', length];
    fixed.answer = { status, head, text };
  } catch {
    // Express's route runs the handler again and answers its failure as every route's.
  }
  return fixed.answer;
}
