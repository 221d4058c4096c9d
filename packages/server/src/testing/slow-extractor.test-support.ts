import type { ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';

/**
 * An extractor run in the extraction pool's worker threads that never finishes a file named
 * `slow.*` (as a parser stuck on one page of a hostile PDF does), and reads anything else at once.
 */
export async function extract(input: ExtractorInput): Promise<ExtractedDocument> {
  if (input.filename.startsWith('slow.')) await new Promise((resolve) => setTimeout(resolve, 10 * 60_000));
  return { blocks: [{ kind: 'paragraph', text: `read ${input.filename}` }], metadata: {} };
}
