export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface GenerateRequest {
  messages: readonly ChatMessage[];
  maxTokens: number;
  temperature?: number;
}

export interface LlmModelInfo {
  backend: string;
  model: string;
  /** The model's own context limit, when known. */
  contextLength: number | null;
  file?: string;
  sizeBytes?: number;
  quantization?: string;
  license?: string;
  gpu: boolean;
}

export interface LlmBackend {
  readonly capabilities: { streaming: boolean; tokenizer: boolean };
  info(): Promise<LlmModelInfo>;
  /** Yields pieces of the answer as they are generated. */
  generate(request: GenerateRequest, signal: AbortSignal): AsyncIterable<string>;
  /** Exact count with the model's tokenizer; present when capabilities.tokenizer. */
  countTokens?(text: string): Promise<number>;
}
