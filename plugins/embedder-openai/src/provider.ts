import type { OpenAI } from 'openai';
import { DocqaError, type EmbeddingProvider } from '@docqa/plugin-api';
import { describeEndpoint } from './client.js';
import type { OpenAiEmbedderOptions } from './config.js';
import { toDocqaError } from './errors.js';

/**
 * The openai package ships no tokenizer, so over-long texts are cut by characters. Two characters
 * per token stays under the limit for ordinary prose (English averages about four) while keeping
 * most of the window; the chunker upstream keeps chunks far below it anyway.
 */
const charactersPerToken = 2;

/** Embeddings from an OpenAI-compatible /embeddings API, `batchSize` texts per request, in order. */
export function createOpenAiEmbeddingProvider(client: OpenAI, options: OpenAiEmbedderOptions): EmbeddingProvider {
  const endpoint = describeEndpoint(options);
  const space = { model: options.model, dimensions: options.dimensions };
  const maxInputCharacters = options.maxInputTokens * charactersPerToken;

  async function embedBatch(texts: readonly string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    let response: OpenAI.Embeddings.CreateEmbeddingResponse;
    try {
      response = await client.embeddings.create(
        {
          model: options.model,
          input: texts.map((text) => prepareInput(text, maxInputCharacters)),
          encoding_format: 'float',
          ...(options.requestDimensions ? { dimensions: options.dimensions } : {}),
        },
        signal ? { signal } : {},
      );
    } catch (error) {
      throw toDocqaError(error, endpoint, options.apiKey, signal);
    }
    return vectorsInOrder(response, texts.length);
  }

  function vectorsInOrder(response: OpenAI.Embeddings.CreateEmbeddingResponse, expected: number): Float32Array[] {
    const data = Array.isArray(response?.data) ? response.data : [];
    if (data.length !== expected) {
      throw new DocqaError(
        'unavailable',
        `the embedding API at ${endpoint} answered ${data.length} vectors for ${expected} texts`,
      );
    }
    // The API numbers its answers; do not rely on their order.
    const vectors = new Array<Float32Array>(expected);
    for (const item of data) {
      const embedding: unknown = item.embedding;
      if (
        !Number.isInteger(item.index) ||
        item.index < 0 ||
        item.index >= expected ||
        vectors[item.index] ||
        !Array.isArray(embedding)
      ) {
        throw new DocqaError('unavailable', `the embedding API at ${endpoint} answered a malformed embedding list`);
      }
      if (embedding.length !== options.dimensions) {
        throw new DocqaError(
          'unavailable',
          `the embedding API at ${endpoint} answered vectors of ${embedding.length} dimensions for model '${options.model}', but the option dimensions says ${options.dimensions}; ` +
            `set dimensions to ${embedding.length} (the index must then be rebuilt) or configure the model that answers ${options.dimensions}`,
        );
      }
      vectors[item.index] = Float32Array.from(embedding as number[]);
    }
    return vectors;
  }

  return {
    space,
    maxInputTokens: options.maxInputTokens,
    async embed(texts, signal) {
      signal?.throwIfAborted();
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += options.batchSize) {
        signal?.throwIfAborted();
        vectors.push(...(await embedBatch(texts.slice(start, start + options.batchSize), signal)));
      }
      return vectors;
    },
  };
}

/**
 * OpenAI refuses an empty string, so it is sent as one space (an empty chunk still needs a vector);
 * a text over the budget is cut, never between the two halves of a surrogate pair.
 */
function prepareInput(text: string, maxCharacters: number): string {
  if (text.length === 0) return ' ';
  if (text.length <= maxCharacters) return text;
  const cut = text.slice(0, maxCharacters);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
