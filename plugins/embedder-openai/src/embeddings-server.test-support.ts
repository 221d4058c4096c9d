import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the test server received. */
export interface ReceivedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: { model?: string; input?: unknown; encoding_format?: string; dimensions?: number };
}

export interface EmbeddingsServer {
  /** `http://127.0.0.1:<port>`; the OpenAI base URL is this plus `/v1`. */
  origin: string;
  requests: ReceivedRequest[];
  /** Answer the next `count` requests with this HTTP status and an OpenAI-style error. */
  failNext(status: number, count?: number): void;
  /** Wait this long before answering each request. */
  delayMs: number;
  /** The length of the vectors answered (unless a request asks for `dimensions`). */
  dimensions: number;
  close(): Promise<void>;
}

/** Mirrors OpenAI's limit in "tokens", counted here as whitespace-separated words. */
export const serverMaxInputWords = 8191;

/**
 * A real OpenAI-compatible embeddings server on loopback: POST /v1/embeddings with
 * `Authorization: Bearer <key>`, and Azure's POST /openai/deployments/<deployment>/embeddings
 * ?api-version=… with an `api-key` header. Vectors are derived from a hash of model and text, so
 * the same text always gets the same vector. Like OpenAI, it refuses empty strings and over-long
 * inputs, and its 401 echoes the key it got (the plugin must not pass that on).
 */
export async function startEmbeddingsServer(options: {
  apiKey: string;
  dimensions: number;
  azureDeployment?: string;
}): Promise<EmbeddingsServer> {
  let failures: { status: number; count: number } | null = null;
  const state: EmbeddingsServer = {
    origin: '',
    requests: [],
    delayMs: 0,
    dimensions: options.dimensions,
    failNext: (status, count = 1) => {
      failures = { status, count };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const text = await readBody(request);
    const body = parseJson(text) as ReceivedRequest['body'];
    state.requests.push({ path: `${url.pathname}${url.search}`, headers: request.headers, body });
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (response.destroyed) return; // the client gave up

    const azure =
      options.azureDeployment !== undefined &&
      url.pathname === `/openai/deployments/${options.azureDeployment}/embeddings`;
    if (request.method !== 'POST' || (!azure && url.pathname !== '/v1/embeddings'))
      return answerError(response, 404, `no route ${request.method} ${url.pathname}`);
    if (azure && !url.searchParams.get('api-version')) return answerError(response, 400, 'api-version is required');
    const key = azure ? request.headers['api-key'] : request.headers.authorization?.replace(/^Bearer /, '');
    if (key !== options.apiKey) return answerError(response, 401, `Incorrect API key provided: ${String(key)}.`);
    if (failures && failures.count > 0) {
      failures.count -= 1;
      return answerError(response, failures.status, 'The server had an error while processing your request.');
    }
    const inputs = typeof body.input === 'string' ? [body.input] : body.input;
    if (!Array.isArray(inputs) || inputs.some((input) => typeof input !== 'string'))
      return answerError(response, 400, "'input' must be a string or an array of strings");
    if (inputs.some((input) => input === ''))
      return answerError(response, 400, "'$.input' is invalid: empty strings are not allowed");
    if (inputs.some((input: string) => input.split(/\s+/).length > serverMaxInputWords)) {
      return answerError(response, 400, `This model's maximum context length is ${serverMaxInputWords} tokens.`);
    }
    const dimensions = body.dimensions ?? state.dimensions;
    const data = inputs.map((input: string, index: number) => {
      const vector = vectorFor(`${body.model}\u0000${input}`, dimensions);
      const embedding =
        body.encoding_format === 'base64' ? Buffer.from(vector.buffer).toString('base64') : Array.from(vector);
      return { object: 'embedding', index, embedding };
    });
    // Answered in reverse: a client must order by `index`, not by position.
    answer(response, 200, {
      object: 'list',
      data: data.reverse(),
      model: body.model,
      usage: { prompt_tokens: 1, total_tokens: 1 },
    });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => answerError(response, 500, String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** A deterministic vector in [-1, 1] from a hash of the text. */
export function vectorFor(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  let block = Buffer.alloc(0);
  for (let index = 0; index < dimensions; index += 1) {
    if (index % 16 === 0) block = createHash('sha256').update(`${index}:${text}`).digest();
    vector[index] = block.readUInt16LE((index % 16) * 2) / 32767.5 - 1;
  }
  return vector;
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  if (response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function answerError(response: ServerResponse, status: number, message: string): void {
  answer(response, status, {
    error: {
      message,
      type: status === 401 ? 'invalid_request_error' : 'server_error',
      code: status === 401 ? 'invalid_api_key' : null,
    },
  });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
