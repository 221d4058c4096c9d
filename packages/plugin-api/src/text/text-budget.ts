import { z } from 'zod';
import { DocqaError } from '../errors.js';

/**
 * The text one document may yield by default (the `maxTextCharacters` of the extractors that count
 * it). DocQA keeps each document's extracted text for metadata refreshes up to this size too.
 */
export const defaultMaxTextCharacters = 20_000_000;

/** The `maxTextCharacters` plugin option of an extractor, with that extractor's default. */
export function maxTextCharactersSchema(defaultCharacters: number) {
  return z.number().int().min(10_000).max(2_000_000_000).default(defaultCharacters);
}

/**
 * Counts the text an extractor produces for one document and stops it at the limit, so that one
 * file (a zip bomb's millions of paragraphs) cannot flood the chunker, the embedder and the index.
 */
export class TextBudget {
  #used = 0;

  constructor(
    private readonly filename: string,
    /** The plugin whose maxTextCharacters option this is, named in the error. */
    private readonly plugin: string,
    private readonly maxCharacters: number,
  ) {}

  /** Counts `text`; throws once the document's text is over the limit. */
  spend(text: string): void {
    this.#used += text.length;
    if (this.#used > this.maxCharacters) {
      throw new DocqaError(
        'file_too_large',
        `${this.filename} has more than ${this.maxCharacters} characters of text; it was not indexed. ` +
          `The limit is the maxTextCharacters option of ${this.plugin} (docs/security.md).`,
        { extra: { limit: 'maxTextCharacters' } },
      );
    }
  }
}
