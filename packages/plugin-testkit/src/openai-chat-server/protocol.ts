import type { ChatServerError } from './types.js';

/** The JSON bodies of the chat-completions protocol, shaped like OpenAI's (and Azure's) own. */

export interface CompletionIdentity {
  id: string;
  created: number;
  model: string;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export type FinishReason = 'stop' | 'length';

export const usageOf = (promptTokens: number, completionTokens: number): Usage => ({
  prompt_tokens: promptTokens,
  completion_tokens: completionTokens,
  total_tokens: promptTokens + completionTokens,
});

export function completionBody(
  identity: CompletionIdentity,
  content: string,
  finishReason: FinishReason,
  usage: Usage,
): object {
  return {
    ...identity,
    object: 'chat.completion',
    choices: [
      { index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: finishReason },
    ],
    usage,
    system_fingerprint: null,
  };
}

/**
 * One SSE event of a streamed answer. With `stream_options.include_usage`, OpenAI puts `usage: null`
 * on every chunk and sends the numbers in a last chunk with no choices.
 */
export function chunkEvent(
  identity: CompletionIdentity,
  choice: { delta: Record<string, unknown>; finish_reason: FinishReason | null } | null,
  usage: Usage | null | undefined,
): string {
  const chunk = {
    ...identity,
    object: 'chat.completion.chunk',
    choices: choice ? [{ index: 0, delta: choice.delta, logprobs: null, finish_reason: choice.finish_reason }] : [],
    system_fingerprint: null,
    ...(usage !== undefined ? { usage } : {}),
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** Azure opens a stream with a chunk that has no choices, only the prompt's content-filter results. */
export function azurePromptFilterEvent(): string {
  const chunk = {
    id: '',
    object: '',
    created: 0,
    model: '',
    choices: [],
    prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

export const doneEvent = 'data: [DONE]\n\n';

/** The default text and type of an error status, as OpenAI words them. */
export function errorBody(status: number, error: ChatServerError = {}): object {
  const defaults: Required<ChatServerError> =
    status === 429
      ? {
          message: 'Rate limit reached for requests. Please try again in 1s.',
          type: 'requests',
          code: 'rate_limit_exceeded',
          param: null,
        }
      : status === 503
        ? {
            message: 'The engine is currently overloaded, please try again later.',
            type: 'server_error',
            code: null,
            param: null,
          }
        : status >= 500
          ? {
              message: 'The server had an error while processing your request. Sorry about that!',
              type: 'server_error',
              code: null,
              param: null,
            }
          : {
              message: `The request was refused (HTTP ${status}).`,
              type: 'invalid_request_error',
              code: null,
              param: null,
            };
  return { error: { ...defaults, ...error } };
}

export function contextLengthExceeded(contextLength: number, promptTokens: number, completionTokens: number): object {
  return errorBody(400, {
    message:
      `This model's maximum context length is ${contextLength} tokens. However, you ` +
      `requested ${promptTokens + completionTokens} tokens ` +
      `(${promptTokens} in the messages, ${completionTokens} in the completion). ` +
      'Please reduce the length of the messages or completion.',
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  });
}
