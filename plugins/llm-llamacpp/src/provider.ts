import { LlamaChat, type ChatHistoryItem, type LlamaContextSequence } from 'node-llama-cpp';
import { DocqaError, type ChatMessage, type GenerateRequest, type LlmBackend, type Logger } from '@docqa/plugin-api';
import type { LlamaCppLlmOptions } from './config.js';
import { messageOf, type LoadedChatModel } from './load-model.js';
import { PieceQueue } from './piece-queue.js';
import { SequencePool } from './sequence-pool.js';

export interface LlamaCppLlmBackend extends LlmBackend {
  countTokens(text: string): Promise<number>;
  /** Stops every generation and fails waiting requests; resolves once no sequence is in use. */
  close(): Promise<void>;
}

/** Why a generation was stopped by this backend rather than by its caller. */
class TimedOut extends Error {}
class ConsumerLeft extends Error {}
class ShuttingDown extends Error {}
/** Thrown by the context-shift strategy: a prompt that does not fit is refused, never silently cut. */
class ContextFull extends Error {}

/**
 * Answers chats with a loaded model: each request borrows one sequence of the context, formats the
 * messages with the model's own chat template, and streams the answer's text as it is generated.
 */
export function createLlamaCppLlmBackend(
  loaded: LoadedChatModel,
  options: LlamaCppLlmOptions,
  logger: Logger,
): LlamaCppLlmBackend {
  const { model, context, chatWrapper, contextSize } = loaded;
  const sequences = Array.from({ length: options.sequences }, () => context.getSequence());
  const pool = new SequencePool(sequences, () => (context.disposed ? null : context.getSequence()), logger);
  const timeoutMs = options.timeoutSeconds * 1000;
  /** Every generation under way, to stop them all at shutdown. */
  const running = new Set<{ stop: AbortController; settled: Promise<void> }>();
  let closing = false;

  /** Tokens of the formatted chat up to where the answer starts, exactly as LlamaChat will evaluate them. */
  function promptTokens(history: ChatHistoryItem[]): number {
    const { contextText } = chatWrapper.generateContextState({ chatHistory: history });
    return contextText.tokenize(model.tokenizer).length;
  }

  async function* generate(request: GenerateRequest, signal: AbortSignal): AsyncGenerator<string> {
    signal.throwIfAborted();
    if (closing)
      throw new DocqaError('unavailable', 'the local chat model is shutting down; try again when DocQA is back');
    const history = toChatHistory(request);
    const prompt = promptTokens(history);
    // LlamaChat keeps one position free; the answer gets what the prompt leaves.
    const room = contextSize - prompt - 1;
    if (room < 1) {
      throw new DocqaError(
        'validation_failed',
        `the prompt is ${prompt} tokens but the model's context holds ${contextSize} (option contextSize, ` +
          "DocQA's N_CTX); send fewer or shorter passages, or raise the context size",
        { extra: { prompt_tokens: prompt, context_tokens: contextSize } },
      );
    }

    // One controller stops the generation, whoever asks: the caller, the timeout, an early break, shutdown.
    const stop = new AbortController();
    const onCallerAbort = () => stop.abort(signal.reason);
    signal.addEventListener('abort', onCallerAbort, { once: true });
    const timer = setTimeout(() => stop.abort(new TimedOut()), timeoutMs);
    const entry = { stop, settled: Promise.resolve() };
    running.add(entry);
    const pieces = new PieceQueue();
    try {
      const lent = await pool.acquire(stop.signal);
      entry.settled = answer(
        lent,
        history,
        { maxTokens: Math.min(request.maxTokens, room), temperature: request.temperature ?? options.temperature },
        stop.signal,
        pieces,
      ).finally(() => {
        clearTimeout(timer);
        running.delete(entry);
      });
      for await (const piece of pieces) {
        // Pieces generated before an abort are dropped: nothing reaches a caller who has left.
        stop.signal.throwIfAborted();
        yield piece;
        stop.signal.throwIfAborted();
      }
    } catch (error) {
      throw translate(error, stop.signal, { prompt, contextSize, timeoutSeconds: options.timeoutSeconds });
    } finally {
      signal.removeEventListener('abort', onCallerAbort);
      // Reached early when the consumer breaks out of its loop (return()) or an error ends it: stop the
      // generation and wait until it has given its sequence back, so the next request finds it free.
      if (!stop.signal.aborted) stop.abort(new ConsumerLeft());
      await entry.settled;
      clearTimeout(timer);
      running.delete(entry);
    }
  }

  /**
   * Generates one answer on a lent sequence into `pieces`, and gives the sequence back as soon as the
   * generation ends, not when the consumer has read every piece: a slow reader never holds a
   * sequence, and the timeout bounds the generation, not the reading.
   */
  async function answer(
    lent: LlamaContextSequence,
    history: ChatHistoryItem[],
    sampling: { maxTokens: number; temperature: number },
    stopped: AbortSignal,
    pieces: PieceQueue,
  ): Promise<void> {
    // Every path ends `pieces`, or the reader would wait forever (the constructor throws on a disposed sequence).
    let chat: LlamaChat | null = null;
    try {
      stopped.throwIfAborted();
      chat = new LlamaChat({ contextSequence: lent, chatWrapper, autoDisposeSequence: false });
      await chat.generateResponse(history, {
        ...sampling,
        signal: stopped,
        onTextChunk: (text) => pieces.push(text),
        contextShift: {
          strategy: () => {
            throw new ContextFull();
          },
        },
      });
      pieces.end();
    } catch (error) {
      pieces.fail(error);
    } finally {
      chat?.dispose({ disposeSequence: false });
      await pool.release(lent);
    }
  }

  return {
    capabilities: { streaming: true, tokenizer: true, generative: true },
    async info() {
      return { ...loaded.info };
    },
    generate(request, signal) {
      return generate(request, signal);
    },
    async countTokens(text) {
      // Special-token text in a passage ("<|im_end|>") counts as the plain text it is.
      return text === '' ? 0 : model.tokenize(text, false).length;
    },
    async close() {
      closing = true;
      pool.close();
      for (const { stop } of running) stop.abort(new ShuttingDown());
      await Promise.allSettled([...running].map(({ settled }) => settled));
    },
  };
}

function toChatHistory(request: GenerateRequest): ChatHistoryItem[] {
  if (!Number.isInteger(request.maxTokens) || request.maxTokens < 1) {
    throw new DocqaError(
      'validation_failed',
      `maxTokens must be a whole number of at least 1, got ${request.maxTokens}`,
    );
  }
  if (request.messages.length === 0) throw new DocqaError('validation_failed', 'a chat needs at least one message');
  const history = request.messages.map(toHistoryItem);
  // The answer is a model turn after the last message (or the continuation of a last assistant message).
  if (history.at(-1)?.type !== 'model') history.push({ type: 'model', response: [] });
  return history;
}

function toHistoryItem(message: ChatMessage): ChatHistoryItem {
  switch (message.role) {
    case 'system':
      return { type: 'system', text: message.content };
    case 'user':
      return { type: 'user', text: message.content };
    case 'assistant':
      return { type: 'model', response: [message.content] };
  }
}

/** What a caller sees: its own abort reason, or a DocqaError that says what happened. */
function translate(
  error: unknown,
  stopped: AbortSignal,
  sizes: { prompt: number; contextSize: number; timeoutSeconds: number },
): unknown {
  if (error instanceof DocqaError) return error;
  const reason: unknown = stopped.aborted ? stopped.reason : undefined;
  if (reason instanceof TimedOut) {
    return new DocqaError(
      'unavailable',
      `the local chat model did not answer within ${sizes.timeoutSeconds} s (option timeoutSeconds, DocQA's ` +
        'INFERENCE_TIMEOUT_SECONDS); try again, ask for a shorter answer, or raise the timeout',
    );
  }
  if (reason instanceof ShuttingDown)
    return new DocqaError('unavailable', 'the local chat model is shutting down; try again when DocQA is back');
  if (stopped.aborted && error === reason) return error;
  if (error instanceof ContextFull) {
    return new DocqaError(
      'validation_failed',
      `the prompt of ${sizes.prompt} tokens and its answer do not fit the model's context ` +
        `of ${sizes.contextSize} tokens; send fewer or shorter passages`,
    );
  }
  return new DocqaError('unavailable', `the local chat model failed: ${messageOf(error)}`, { cause: error });
}
