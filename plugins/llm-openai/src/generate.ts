import { setTimeout as sleep } from 'node:timers/promises';
import type { OpenAI } from 'openai';
import type { GenerateRequest, LlmBackend, Logger } from '@docqa/plugin-api';
import { endpointOf, modelOf, requestModelOf } from './client.js';
import type { LlmOpenAiOptions } from './config.js';
import { timeoutError, toDocqaError, type FailureContext } from './errors.js';
import type { ServerModelWatch } from './model-watch.js';
import { isRetryable, retryDelayMs } from './retry.js';

/** Answers from a chat-completions API, streamed piece by piece as the server sends them. */
export function createOpenAiLlmBackend(
  client: OpenAI,
  options: LlmOpenAiOptions,
  logger: Logger,
  watch: ServerModelWatch | null = null,
): LlmBackend {
  const endpoint = endpointOf(options);
  const model = modelOf(options);

  async function* generate(request: GenerateRequest, signal: AbortSignal): AsyncGenerator<string> {
    if (signal.aborted) return;
    // One controller closes the HTTP request whatever ends the answer: the caller's abort, the
    // deadline, a consumer that stops reading (finally below), or a failure.
    const call = new AbortController();
    const stopCall = () => call.abort();
    signal.addEventListener('abort', stopCall, { once: true });
    let timedOut = false;
    const deadlineAt = Date.now() + options.timeoutSeconds * 1000;
    const deadline = setTimeout(() => {
      timedOut = true;
      call.abort();
    }, options.timeoutSeconds * 1000);
    const context: FailureContext = {
      endpoint,
      model,
      apiKey: options.apiKey,
      timeoutSeconds: options.timeoutSeconds,
      maxTokens: request.maxTokens,
      piecesYielded: 0,
      attempts: 0,
    };

    try {
      while (true) {
        context.attempts += 1;
        try {
          const stream = await client.chat.completions.create(
            {
              model: requestModelOf(options),
              messages: request.messages.map(({ role, content }) => ({ role, content })),
              // max_tokens, not max_completion_tokens: OpenAI's newer name is refused by many
              // OpenAI-compatible servers and by Azure API versions before 2024-09-01-preview, while
              // max_tokens is taken by all of them and by OpenAI's chat models (only its reasoning
              // models insist on the new name, and they also refuse a temperature).
              max_tokens: request.maxTokens,
              temperature: request.temperature ?? options.temperature,
              stream: true,
            },
            { signal: call.signal },
          );
          for await (const chunk of stream) {
            // Pieces the client had already buffered must not reach a caller that went away.
            if (call.signal.aborted) break;
            const choice = chunk.choices[0]; // Azure's first chunk and a usage chunk have none
            if (choice?.finish_reason === 'content_filter')
              logger.warn({ endpoint, model }, 'the hosted LLM API cut the answer short with its content filter');
            const text = choice?.delta?.content;
            if (!text) continue;
            context.piecesYielded += 1;
            yield text;
          }
          // The package ends a stream quietly when its request is aborted: tell a deadline from the end.
          if (timedOut) throw timeoutError(context);
          return;
        } catch (error) {
          if (signal.aborted) return; // the caller went away: not a failure of the API
          if (timedOut) throw timeoutError(context);
          if (context.piecesYielded > 0 || context.attempts > options.maxRetries || !isRetryable(error))
            throw toDocqaError(error, context);
          const delay = retryDelayMs(context.attempts, error);
          // A retry that could not finish in time only delays the failure; its message says more than "too slow".
          if (Date.now() + delay >= deadlineAt) throw toDocqaError(error, context);
          logger.debug(
            { endpoint, model, attempt: context.attempts, delayMs: Math.round(delay) },
            'the hosted LLM API failed before answering; retrying',
          );
          await sleep(delay, undefined, { signal: call.signal }).catch(() => undefined);
          if (signal.aborted) return;
        }
      }
    } finally {
      clearTimeout(deadline);
      signal.removeEventListener('abort', stopCall);
      call.abort(); // closes the request when the consumer stopped early; harmless after the end
    }
  }

  return {
    capabilities: { streaming: true, tokenizer: false, generative: true },
    async info() {
      // What the server said wins over the configured name (llama.cpp answers to any name); the
      // context is the smaller of the configured and the reported one, when both are known.
      const known = watch?.known;
      const limits = [options.contextLength, known?.contextLength].filter((each) => typeof each === 'number');
      return {
        backend: options.backend ?? 'hosted',
        model: known?.model ?? model,
        contextLength: limits.length > 0 ? Math.min(...limits) : null,
        gpu: false,
        endpoint,
      };
    },
    generate,
    ...(watch ? { onInfoChange: (listener: () => void) => watch.onChange(listener) } : {}),
  };
}
