import type { IncomingHttpHeaders } from 'node:http';

export interface ChatCompletionsServerOptions {
  /** The only key accepted, as `Authorization: Bearer <key>` (OpenAI) or an `api-key` header (Azure). */
  apiKey: string;
  /**
   * The models (and Azure deployments) served; a request for another one is refused with 404 like
   * OpenAI does. Unset: any model is served, and GET /v1/models lists `docqa-test-chat`.
   */
  models?: readonly string[];
  /** A fixed answer; unset or null: the answer is derived from the request (see `chatAnswerFor`). */
  reply?: string | null;
  /** Wait before the first piece of an answer (time to first token). */
  firstTokenDelayMs?: number;
  /** Wait before each further piece. */
  tokenDelayMs?: number;
  /**
   * The model's context window in words; a longer prompt plus max_tokens is refused with 400
   * context_length_exceeded. GET /v1/models then lists it as `max_model_len`, as vLLM does.
   */
  contextLength?: number | null;
  /**
   * Answer like llama.cpp's server about its model: GET /props and the `meta` of GET /v1/models
   * (llamacpp-metadata.ts). Unset: /props is 404 and /v1/models lists plain OpenAI entries.
   */
  llamaCpp?: LlamaCppServerModel;
}

/** The model a llama.cpp-like server reports; a test may replace it to act as a restart with another model. */
export interface LlamaCppServerModel {
  /** `model_path` of /props and the id of /v1/models. */
  path: string;
  /** The context one request may use (`default_generation_settings.n_ctx`). */
  nCtx: number;
  /** The model's training context (`meta.n_ctx_train`). */
  nCtxTrain: number;
  /** Still loading: /props answers 503 and /v1/models' meta is null. */
  loading?: boolean;
}

/** The parts of an OpenAI-style error body a test may set. */
export interface ChatServerError {
  message?: string;
  type?: string;
  code?: string | null;
  param?: string | null;
}

/** One request the server received, recorded before it is checked (so refused ones are there too). */
export interface ReceivedChatRequest {
  method: string;
  /** Path with its query, e.g. `/openai/deployments/chat/chat/completions?api-version=2024-10-21`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; null for a body that is empty or not JSON. */
  body: Record<string, unknown> | null;
  /** Answer pieces (one word each) written to this request so far. */
  piecesSent: number;
  /** The client closed the connection before the answer was complete. */
  clientWentAway: boolean;
}

export interface ChatCompletionsServer {
  /** `http://127.0.0.1:<port>`; also the Azure endpoint. */
  readonly origin: string;
  /** `origin + '/v1'`, the base URL an OpenAI client takes. */
  readonly baseUrl: string;
  readonly requests: ReceivedChatRequest[];
  /** Knobs read at each request, so a test may change them between requests. */
  reply: string | null;
  firstTokenDelayMs: number;
  tokenDelayMs: number;
  contextLength: number | null;
  /** What GET /props and /v1/models report (see the option); null: plain OpenAI answers. */
  llamaCpp: LlamaCppServerModel | null;
  /** Answer the next `count` chat requests (after the key check) with this status and an OpenAI-style error body. */
  failNext(status: number, count?: number, error?: ChatServerError): void;
  /** The next `count` streamed answers send `afterPieces` pieces, then the server destroys the socket. */
  failMidStream(afterPieces: number, count?: number): void;
  /** How many clients went away while their answer was being generated (not counting failMidStream). */
  readonly disconnects: number;
  /** Answers being generated right now. */
  readonly activeGenerations: number;
  /** Resolves once `disconnects` reaches `total`; rejects after `timeoutMs`. */
  waitForDisconnects(total?: number, timeoutMs?: number): Promise<void>;
  /** Stops generating, drops every connection and stops listening. */
  close(): Promise<void>;
}
