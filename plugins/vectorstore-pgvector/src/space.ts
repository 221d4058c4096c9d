import { DocqaError, type EmbeddingSpace } from '@docqa/plugin-api';

/** pgvector's `vector` type holds at most this many dimensions. */
export const maxVectorDimensions = 16_000;
/** pgvector's HNSW index on `vector` covers at most this many; larger spaces are searched exactly. */
export const maxIndexedDimensions = 2_000;
const maxModelNameLength = 200;
// Single precision is what pgvector stores; a larger magnitude is refused by the server.
const maxFloat32 = 3.4028234663852886e38;

/** The key vectors are stored under: one model at one size, so that nothing else compares with them. */
export function spaceKey(space: EmbeddingSpace): string {
  return `${space.model}@${space.dimensions}`;
}

export function assertValidSpace(space: EmbeddingSpace): void {
  const { model, dimensions } = space;
  if (
    typeof model !== 'string' ||
    model.length === 0 ||
    model.length > maxModelNameLength ||
    /[\u0000-\u001f\u007f]/.test(model)
  ) {
    throw new DocqaError(
      'validation_failed',
      `Embedding model name must be 1 to ${maxModelNameLength} printable characters, got ${JSON.stringify(model)}.`,
    );
  }
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > maxVectorDimensions) {
    throw new DocqaError(
      'validation_failed',
      `Embedding dimensions of model '${model}' must be an integer from 1 to ` +
        `${maxVectorDimensions}, got ${String(dimensions)}.`,
    );
  }
}

/**
 * Checks one embedding against its space and returns pgvector's text form of it. Zero vectors are
 * refused because their cosine similarity with anything is undefined.
 */
export function toVectorLiteral(
  embedding: Float32Array | readonly number[],
  space: EmbeddingSpace,
  what: string,
): string {
  if (embedding.length !== space.dimensions) {
    throw new DocqaError(
      'validation_failed',
      `${what} has ${embedding.length} dimensions; space ${spaceKey(space)} needs ${space.dimensions}.`,
    );
  }
  let squaredNorm = 0;
  for (let i = 0; i < embedding.length; i++) {
    const value = embedding[i];
    if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > maxFloat32) {
      throw new DocqaError(
        'validation_failed',
        `${what} has a value that is not a finite single-precision number at position ${i}: ${String(value)}.`,
      );
    }
    // The norm that counts is the stored one: values below single precision's range become 0.
    const stored = Math.fround(value);
    squaredNorm += stored * stored;
  }
  if (squaredNorm === 0) {
    throw new DocqaError('validation_failed', `${what} is the zero vector, which has no direction to compare.`);
  }
  return `[${Array.prototype.join.call(embedding, ',')}]`;
}
