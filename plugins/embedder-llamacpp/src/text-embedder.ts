import type { Token } from 'node-llama-cpp';
import type { EmbeddingSpace } from '@docqa/plugin-api';
import { DocqaError } from '@docqa/plugin-api/errors';
import type { LoadedEmbeddingModel } from './load-model.js';

/** One text at a time through a loaded model: what the embedding thread runs. */
export interface TextEmbedder {
  readonly space: EmbeddingSpace;
  /** Longest input in tokens; longer text is truncated to it. */
  readonly maxInputTokens: number;
  embedOne(text: string): Promise<Float32Array>;
}

/** node-llama-cpp evaluates one input at a time on its one sequence, so this embeds one text per call. */
export function createTextEmbedder(loaded: LoadedEmbeddingModel, space: EmbeddingSpace): TextEmbedder {
  const { model, context, contextSize } = loaded;
  // The tokens node-llama-cpp adds around every input ([CLS] and [SEP] for BERT); an input must stay
  // below the context size with them.
  const addedTokens = context.calculateInputLength([]);
  const maxInputTokens = contextSize - 1 - addedTokens;
  if (maxInputTokens < 1) {
    throw new DocqaError(
      'unavailable',
      `the context of ${contextSize} tokens leaves no room for text; raise the option contextSize`,
    );
  }
  // What an empty text is embedded as: the special tokens alone, like a BERT tokenizer does.
  const emptyInput: Token[] = [model.tokens.bos ?? model.tokens.sep ?? model.tokens.eos].filter(
    (token): token is Token => token !== null,
  );

  return {
    space,
    maxInputTokens,
    async embedOne(text) {
      // Special-token text in a document ("[SEP]", "<s>") is plain text, never a control token.
      const tokens = model.tokenize(text, false).slice(0, maxInputTokens);
      const input = tokens.length > 0 ? tokens : emptyInput;
      if (input.length === 0) return new Float32Array(space.dimensions);
      const { vector } = await context.getEmbeddingFor(input);
      if (vector.length !== space.dimensions) {
        throw new DocqaError(
          'internal',
          `the embedding model answered ${vector.length} numbers instead of ${space.dimensions}`,
        );
      }
      return Float32Array.from(vector);
    },
  };
}
