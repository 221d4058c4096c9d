export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One retrieved passage the prompt numbers as [index]. */
export interface GroundingPassage {
  /** The number the answer cites, from 1. */
  index: number;
  title: string;
  text: string;
  /**
   * The language its chunk was analysed in when indexed (ISO 639-1; null when indexing could not tell),
   * left out when the caller does not know it; an extractive backend detects it only then.
   */
  language?: string | null;
}

export interface GenerateRequest {
  messages: readonly ChatMessage[];
  /** The most tokens the answer may take; a backend stops there. */
  maxTokens: number;
  /** 0 is deterministic; backends default to a low value for grounded answers. */
  temperature?: number;
  /**
   * The question and the passages the messages were built from. Generative backends read the
   * messages and may ignore this; an extractive backend answers from it alone.
   */
  grounding?: { question: string; passages: readonly GroundingPassage[] };
}

export interface LlmModelInfo {
  /** `local`, `hosted`, `extractive`, or a third-party plugin's own name. */
  backend: string;
  model: string;
  /** The model's own context limit in tokens, when known. */
  contextLength: number | null;
  file?: string;
  sizeBytes?: number;
  quantization?: string;
  license?: string;
  gpu: boolean;
  /** Where a hosted model is reached (never with a key). */
  endpoint?: string;
}

export interface LlmBackend {
  readonly capabilities: {
    streaming: boolean;
    /** countTokens is exact (the model's own tokenizer). */
    tokenizer: boolean;
    /** false for a backend that only quotes the passages it is given (no language model). */
    generative: boolean;
  };
  /** Answers at once: no request to a model server. */
  info(): Promise<LlmModelInfo>;
  /**
   * Yields pieces of the answer as they are generated. When `signal` aborts, generation stops and
   * the iteration ends (returns or throws) promptly. Failures are DocqaErrors: `unavailable` when the
   * model or its server cannot answer (including a timeout), `validation_failed` for a request the
   * model cannot take (such as a prompt over its context).
   */
  generate(request: GenerateRequest, signal: AbortSignal): AsyncIterable<string>;
  /** Exact count with the model's tokenizer; present when capabilities.tokenizer. */
  countTokens?(text: string): Promise<number>;
  /**
   * For a backend whose model can change under it (a model server that loaded another model, or
   * reports its context only once it answers): calls `listener` after info() changed. Returns the
   * unsubscribe function. The kernel derives EFFECTIVE_N_CTX anew then.
   */
  onInfoChange?(listener: () => void): () => void;
}
