import type { ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';

/**
 * An extractor for the pool's tests, run in its worker threads. A file named "hog" keeps allocating,
 * as a parser inflating a zip bomb does, until its worker's heap limit stops it; any other file reads
 * as one paragraph.
 */
export async function extract(input: ExtractorInput): Promise<ExtractedDocument> {
  if (input.filename === 'hog') {
    const held: string[] = [];
    for (let i = 0; ; i += 1) held.push(`paragraph ${i} `.repeat(64));
  }
  return { blocks: [{ kind: 'paragraph', text: `read ${input.filename}` }], metadata: {} };
}
