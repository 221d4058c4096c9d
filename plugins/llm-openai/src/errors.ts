import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { DocqaError } from '@docqa/plugin-api';

/** What a message about a failure needs to know besides the error. */
export interface FailureContext {
  endpoint: string;
  model: string;
  apiKey: string;
  timeoutSeconds: number;
  maxTokens: number;
  /** Pieces of the answer already passed on when it failed. */
  piecesYielded: number;
  /** Requests made for this answer, retries included. */
  attempts: number;
}

/** OpenAI's code for a prompt over the context window, and the wording of servers that send no code. */
const contextLengthCode = 'context_length_exceeded';
const contextLengthWording = /maximum context length|context (length|window)|too many tokens|prompt is too long/i;

/**
 * Turns a failure of the chat-completions API into a DocqaError that says what to fix. The key
 * never appears: servers echo it (OpenAI prints it masked, others in full), so server messages are
 * scrubbed, a 401's is left out, and an API error, which carries that message, is never the cause.
 */
export function toDocqaError(error: unknown, context: FailureContext): DocqaError {
  if (error instanceof DocqaError) return error;
  const api = `the hosted LLM API at ${context.endpoint}`;
  const retried = context.attempts > 1 ? ` (${context.attempts} attempts)` : '';
  if (error instanceof APIConnectionTimeoutError) return timeoutError(context);
  if (error instanceof APIConnectionError) {
    // A connection failure carries no server text, so its cause is safe to keep.
    return new DocqaError(
      'unavailable',
      `cannot reach ${api}${retried}: ${scrub(messageOf(error.cause ?? error), context.apiKey)}`,
      { cause: error },
    );
  }
  if (error instanceof APIError && error.status === undefined) {
    // An error event inside a stream that had started.
    return new DocqaError(
      'unavailable',
      `${api} reported an error in the middle of the answer: ${scrub(error.message, context.apiKey)}`,
    );
  }
  if (error instanceof APIError) {
    const status = error.status as number;
    const detail = scrub(serverMessageOf(error), context.apiKey);
    if (status === 400 && (error.code === contextLengthCode || contextLengthWording.test(detail))) {
      return new DocqaError(
        'validation_failed',
        `the prompt and the answer's budget of ${context.maxTokens} tokens do not fit the context window of ` +
          `model '${context.model}': shorten the prompt or ask for fewer tokens: ${detail}`,
      );
    }
    if (status === 401) {
      return new DocqaError(
        'unavailable',
        `${api} refused the API key (HTTP 401): check HOSTED_API_KEY (the ` +
          'option apiKey) and that it belongs to this endpoint',
      );
    }
    const hint =
      status === 403
        ? 'check that the key may use this model and endpoint'
        : status === 404
          ? `check the model '${context.model}' (HOSTED_MODEL, or the Azure ` +
            'deployment) and the base URL (HOSTED_BASE_URL)'
          : status === 429
            ? 'the API is rate limiting or out of quota; retry later'
            : status >= 500
              ? 'the API failed; retry later'
              : 'the API refused the request';
    const retryAfter = error.headers?.get('retry-after');
    return new DocqaError(
      'unavailable',
      `${api} answered HTTP ${status}${retried}: ${hint}: ${detail}`,
      retryAfter ? { headers: { 'Retry-After': retryAfter } } : {},
    );
  }
  if (context.piecesYielded > 0) {
    return new DocqaError(
      'unavailable',
      `the connection to ${api} broke off after ${context.piecesYielded} pieces of ` +
        `the answer: ${scrub(messageOf(error), context.apiKey)}`,
      { cause: error },
    );
  }
  return new DocqaError(
    'unavailable',
    `${api} failed before answering${retried}: ${scrub(messageOf(error), context.apiKey)}`,
    { cause: error },
  );
}

export function timeoutError(context: FailureContext): DocqaError {
  return new DocqaError(
    'unavailable',
    `the hosted LLM API at ${context.endpoint} did not finish the answer within ${context.timeoutSeconds} s: ` +
      'check that it is up, or raise INFERENCE_TIMEOUT_SECONDS (the option timeoutSeconds)',
  );
}

/** Removes the key, and anything shaped like an OpenAI key, from a text. */
export function scrub(text: string, apiKey: string): string {
  return text
    .split(apiKey)
    .join('***')
    .replace(/\bsk-[A-Za-z0-9_*\-]{4,}/g, 'sk-***');
}

/** The server's own words: the package prefixes the status ("400 ..."), which the message says already. */
function serverMessageOf(error: APIError): string {
  return error.message.replace(/^\d{3}\s+/, '');
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici's "terminated" says little; its cause ("other side closed") says what happened.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
