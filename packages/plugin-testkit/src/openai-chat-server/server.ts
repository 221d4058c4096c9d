import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerPieces, chatAnswerFor, promptWords } from './answer.js';
import { generateAnswer, type Generation } from './generation.js';
import { modelsBody, propsBody } from './llamacpp-metadata.js';
import { contextLengthExceeded, errorBody } from './protocol.js';
import type {
  ChatCompletionsServer,
  ChatCompletionsServerOptions,
  ChatServerError,
  ReceivedChatRequest,
} from './types.js';

/** What GET /v1/models lists when the options name no models. */
const defaultModel = 'docqa-test-chat';
const azureChatRoute = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;

/**
 * A real OpenAI-compatible chat-completions server on loopback (127.0.0.1, a random port), for
 * testing LLM plugins without mocks: POST /v1/chat/completions with `Authorization: Bearer <key>`,
 * Azure's POST /openai/deployments/<deployment>/chat/completions?api-version=… with `api-key`, and
 * GET /v1/models (with `llamaCpp`, also llama.cpp's GET /props and model metadata). Answers are
 * deterministic (see `chatAnswerFor`), streamed one word per SSE chunk
 * and written the moment they are due, so the server adds no latency of its own to a benchmark.
 * Like OpenAI, a 401 echoes the key it got (here unmasked, so a test notices if a plugin passes it on).
 */
export async function startChatCompletionsServer(
  options: ChatCompletionsServerOptions,
): Promise<ChatCompletionsServer> {
  let failure: { status: number; count: number; error: ChatServerError | undefined } | null = null;
  let midStreamFailure: { afterPieces: number; count: number } | null = null;
  let disconnects = 0;
  let closing = false;
  let completions = 0;
  const generations = new Set<AbortController>();
  const disconnectWaiters = new Set<{ total: number; settle: (error?: Error) => void }>();

  const state: ChatCompletionsServer = {
    origin: '',
    baseUrl: '',
    requests: [],
    reply: options.reply ?? null,
    firstTokenDelayMs: options.firstTokenDelayMs ?? 0,
    tokenDelayMs: options.tokenDelayMs ?? 0,
    contextLength: options.contextLength ?? null,
    llamaCpp: options.llamaCpp ?? null,
    failNext(status, count = 1, error) {
      failure = { status, count, error };
    },
    failMidStream(afterPieces, count = 1) {
      midStreamFailure = { afterPieces, count };
    },
    get disconnects() {
      return disconnects;
    },
    get activeGenerations() {
      return generations.size;
    },
    waitForDisconnects(total = 1, timeoutMs = 5_000) {
      if (disconnects >= total) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const waiter = {
          total,
          settle(error?: Error) {
            clearTimeout(timer);
            disconnectWaiters.delete(waiter);
            if (error) reject(error);
            else resolve();
          },
        };
        const timer = setTimeout(
          () => waiter.settle(new Error(`${disconnects} of ${total} clients went away within ${timeoutMs} ms`)),
          timeoutMs,
        );
        disconnectWaiters.add(waiter);
      });
    },
    async close() {
      closing = true;
      for (const generation of generations) generation.abort();
      for (const waiter of disconnectWaiters) waiter.settle(new Error('the chat-completions test server was closed'));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  function takeFailure(): { status: number; error: ChatServerError | undefined } | null {
    if (!failure || failure.count <= 0) return null;
    failure.count -= 1;
    return failure;
  }

  function takeMidStreamFailure(): number | null {
    if (!midStreamFailure || midStreamFailure.count <= 0) return null;
    midStreamFailure.count -= 1;
    return midStreamFailure.afterPieces;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const body = parseObject(await readBody(request));
    const record: ReceivedChatRequest = {
      method: request.method ?? '',
      path: `${url.pathname}${url.search}`,
      headers: request.headers,
      body,
      piecesSent: 0,
      clientWentAway: false,
    };
    state.requests.push(record);

    const azure = azureChatRoute.exec(url.pathname);
    if (request.method === 'GET' && url.pathname === '/props' && state.llamaCpp) {
      if (!hasBearerKey(request, response)) return;
      const props = propsBody(state.llamaCpp);
      return sendJson(response, props.status, props.body);
    }
    if (request.method === 'GET' && url.pathname === '/v1/models') {
      if (!hasBearerKey(request, response)) return;
      if (state.llamaCpp) return sendJson(response, 200, modelsBody(state.llamaCpp));
      const data = (options.models ?? [defaultModel]).map((id) => ({
        id,
        object: 'model',
        created: 0,
        owned_by: 'docqa-test',
        // vLLM publishes the context it serves as max_model_len; OpenAI publishes none.
        ...(state.contextLength === null ? {} : { max_model_len: state.contextLength }),
      }));
      return sendJson(response, 200, { object: 'list', data });
    }
    if (request.method !== 'POST' || (!azure && url.pathname !== '/v1/chat/completions')) {
      return sendJson(
        response,
        404,
        errorBody(404, { message: `Unknown request URL: ${request.method} ${url.pathname}.`, code: 'unknown_url' }),
      );
    }
    if (azure) {
      if (!url.searchParams.get('api-version'))
        return sendJson(
          response,
          400,
          errorBody(400, { message: 'Missing required query parameter: api-version', code: 'MissingApiVersion' }),
        );
      if (request.headers['api-key'] !== options.apiKey) {
        const message =
          'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key ' +
          'for an active subscription and use a correct regional API endpoint for your resource.';
        return sendJson(response, 401, { error: { code: '401', message } });
      }
    } else if (!hasBearerKey(request, response)) return;

    const failing = takeFailure();
    if (failing) return sendJson(response, failing.status, errorBody(failing.status, failing.error));

    if (!body)
      return sendJson(response, 400, errorBody(400, { message: 'We could not parse the JSON body of your request.' }));
    const model = azure ? decodeURIComponent(azure[1]!) : body.model;
    const invalid = invalidRequest(body, model);
    if (invalid) return sendJson(response, 400, errorBody(400, { message: invalid, type: 'invalid_request_error' }));
    if (options.models && !options.models.includes(model as string)) {
      return azure
        ? sendJson(response, 404, {
            error: {
              code: 'DeploymentNotFound',
              message:
                'The API deployment for this resource does not exist. If you created the deployment ' +
                'within the last 5 minutes, please wait a moment and try again.',
            },
          })
        : sendJson(
            response,
            404,
            errorBody(404, {
              message: `The model \`${String(model)}\` does not exist or you do not have access to it.`,
              code: 'model_not_found',
            }),
          );
    }

    // max_completion_tokens is OpenAI's newer name for max_tokens; a server takes either.
    const maxTokens = (body.max_completion_tokens ?? body.max_tokens ?? undefined) as number | undefined;
    const promptTokens = promptWords(body.messages);
    if (state.contextLength !== null && promptTokens + (maxTokens ?? 0) > state.contextLength) {
      return sendJson(response, 400, contextLengthExceeded(state.contextLength, promptTokens, maxTokens ?? 0));
    }

    const allPieces = answerPieces(state.reply ?? chatAnswerFor(body.messages));
    const pieces = maxTokens === undefined ? allPieces : allPieces.slice(0, maxTokens);
    completions += 1;
    const generation: Generation = {
      response,
      record,
      identity: {
        id: `chatcmpl-docqa-test-${completions}`,
        created: Math.floor(Date.now() / 1000),
        model: String(model),
      },
      pieces,
      finishReason: pieces.length < allPieces.length ? 'length' : 'stop',
      promptTokens,
      stream: body.stream === true,
      includeUsage: (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true,
      azure: azure !== null,
      firstTokenDelayMs: state.firstTokenDelayMs,
      tokenDelayMs: state.tokenDelayMs,
      breakAfterPieces: body.stream === true ? takeMidStreamFailure() : null,
      stop: new AbortController(),
      brokenByServer: false,
    };
    await runGeneration(generation);
  }

  async function runGeneration(generation: Generation): Promise<void> {
    const { response, record, stop } = generation;
    generations.add(stop);
    response.on('close', () => {
      // Stopped before anyone waiting hears of it, so that activeGenerations is already down then.
      stop.abort();
      generations.delete(stop);
      // A response closed before it was complete, and not by the server itself: the client went away.
      if (!response.writableFinished && !generation.brokenByServer && !closing) {
        record.clientWentAway = true;
        disconnects += 1;
        for (const waiter of disconnectWaiters) if (disconnects >= waiter.total) waiter.settle();
      }
    });
    try {
      if (!response.destroyed) await generateAnswer(generation);
    } finally {
      generations.delete(stop);
    }
  }

  function hasBearerKey(request: IncomingMessage, response: ServerResponse): boolean {
    const authorization = request.headers.authorization;
    if (authorization === `Bearer ${options.apiKey}`) return true;
    const message = authorization
      ? `Incorrect API key provided: ${authorization.replace(/^Bearer\s+/i, '')}. You can find ` +
        'your API key at https://platform.openai.com/account/api-keys.'
      : "You didn't provide an API key. You need to provide your API key in an Authorization " +
        'header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).';
    sendJson(
      response,
      401,
      errorBody(401, { message, type: 'invalid_request_error', code: authorization ? 'invalid_api_key' : null }),
    );
    return false;
  }

  const server = createServer({ noDelay: true }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        sendJson(response, 500, errorBody(500, { message: `test server failure: ${String(error)}` }));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(state, { origin, baseUrl: `${origin}/v1` });
  return state;
}

/** What OpenAI would refuse with 400 before generating; null when the request is fine. */
function invalidRequest(body: Record<string, unknown>, model: unknown): string | null {
  if (typeof model !== 'string' || model === '') return 'you must provide a model parameter';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "'messages' must be a non-empty array";
  for (const name of ['max_tokens', 'max_completion_tokens']) {
    const value = body[name];
    if (value !== undefined && value !== null && !(Number.isInteger(value) && (value as number) >= 1))
      return `Invalid '${name}': expected an integer of at least 1.`;
  }
  return null;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  if (response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
