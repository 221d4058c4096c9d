import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Token } from 'node-llama-cpp';
import { DocqaError, type EmbeddingProvider, type EmbeddingSpace } from '@docqa/plugin-api';
import type { LoadedEmbeddingModel } from './load-model.js';

/**
 * Embeds texts with a loaded model. node-llama-cpp evaluates one input at a time on its one
 * sequence, so a "batch" here is how many texts run between two looks at the abort signal and two
 * yields to the event loop (other requests keep being served during a long indexing run).
 */
export function createLlamaCppEmbeddingProvider(loaded: LoadedEmbeddingModel, space: EmbeddingSpace, batchSize: number): EmbeddingProvider {
  const { model, context, contextSize } = loaded;
  // The tokens node-llama-cpp adds around every input ([CLS] and [SEP] for BERT); an input must stay
  // below the context size with them.
  const addedTokens = context.calculateInputLength([]);
  const maxInputTokens = contextSize - 1 - addedTokens;
  if (maxInputTokens < 1) {
    throw new DocqaError('unavailable', `the context of ${contextSize} tokens leaves no room for text; raise the option contextSize`);
  }
  // What an empty text is embedded as: the special tokens alone, like a BERT tokenizer does.
  const emptyInput: Token[] = [model.tokens.bos ?? model.tokens.sep ?? model.tokens.eos].filter((token): token is Token => token !== null);

  async function embedOne(text: string): Promise<Float32Array> {
    // Special-token text in a document ("[SEP]", "<s>") is plain text, never a control token.
    const tokens = model.tokenize(text, false).slice(0, maxInputTokens);
    const input = tokens.length > 0 ? tokens : emptyInput;
    if (input.length === 0) return new Float32Array(space.dimensions);
    const { vector } = await context.getEmbeddingFor(input);
    if (vector.length !== space.dimensions) {
      throw new DocqaError('internal', `the embedding model answered ${vector.length} numbers instead of ${space.dimensions}`);
    }
    return Float32Array.from(vector);
  }

  return {
    space,
    maxInputTokens,
    async embed(texts, signal) {
      signal?.throwIfAborted();
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        for (const text of texts.slice(start, start + batchSize)) {
          signal?.throwIfAborted();
          vectors.push(await embedOne(text));
        }
        if (start + batchSize < texts.length) await nextTurn();
      }
      signal?.throwIfAborted();
      return vectors;
    },
  };
}
