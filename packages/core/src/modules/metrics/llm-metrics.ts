import { Counter, Histogram, type Registry } from 'prom-client';
import type { LlmBackend } from '@docqa/plugin-api';

const firstTokenBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

/** How a chat request ended: answered by the model, answered without passages, failed, or the client left. */
export type ChatRequestOutcome = 'answered' | 'no_passages' | 'failed' | 'aborted';

/** One answer generation of the chat pipeline, as the chat service measured it. */
export interface GenerationSample {
  backend: string;
  promptTokens: number;
  completionTokens: number;
  /** From the request to the model to its first piece; null when it produced none. */
  firstTokenSeconds: number | null;
  /** From the request to the model to its last piece. */
  seconds: number;
}

/**
 * Chat requests and the answer generation of the language model. Token counts are the model's own
 * tokenizer's when the backend has one (capabilities.tokenizer) and DocQA's estimate otherwise, the
 * same numbers the token budget works with; the backend API's own usage report is not read.
 */
export class LlmMetrics {
  readonly #requests: Counter<'outcome'>;
  readonly #promptTokens: Counter<'backend'>;
  readonly #completionTokens: Counter<'backend'>;
  readonly #generationSeconds: Counter<'backend'>;
  readonly #firstToken: Histogram<'backend'>;
  readonly #backendNames = new WeakMap<LlmBackend, Promise<string>>();

  constructor(registry: Registry) {
    this.#requests = new Counter({
      name: 'docqa_chat_requests_total',
      help: 'Chat requests, by outcome (answered, no_passages, failed, aborted).',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.#promptTokens = new Counter({
      name: 'docqa_llm_prompt_tokens_total',
      help: 'Prompt tokens sent for answer generation, by backend.',
      labelNames: ['backend'],
      registers: [registry],
    });
    this.#completionTokens = new Counter({
      name: 'docqa_llm_completion_tokens_total',
      help: 'Tokens of generated answers, by backend.',
      labelNames: ['backend'],
      registers: [registry],
    });
    this.#generationSeconds = new Counter({
      name: 'docqa_llm_generation_seconds_total',
      help: 'Time spent generating answers, by backend; completion tokens over this is the generation rate.',
      labelNames: ['backend'],
      registers: [registry],
    });
    this.#firstToken = new Histogram({
      name: 'docqa_llm_time_to_first_token_seconds',
      help: 'Time from sending the prompt to the first piece of the answer, by backend.',
      labelNames: ['backend'],
      buckets: firstTokenBuckets,
      registers: [registry],
    });
  }

  /**
   * The backend's name (local, hosted, extractive, …), asked once per
   * backend: info() answers without a model request.
   */
  backendName(backend: LlmBackend): Promise<string> {
    let name = this.#backendNames.get(backend);
    if (!name) {
      name = backend.info().then(
        (info) => info.backend,
        () => 'unknown',
      );
      this.#backendNames.set(backend, name);
    }
    return name;
  }

  requestEnded(outcome: ChatRequestOutcome): void {
    this.#requests.inc({ outcome });
  }

  generated(sample: GenerationSample): void {
    const labels = { backend: sample.backend };
    this.#promptTokens.inc(labels, sample.promptTokens);
    this.#completionTokens.inc(labels, sample.completionTokens);
    this.#generationSeconds.inc(labels, sample.seconds);
    if (sample.firstTokenSeconds !== null) this.#firstToken.observe(labels, sample.firstTokenSeconds);
  }
}
