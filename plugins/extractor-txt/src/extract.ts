// Runs inside the ingestion pipeline's extraction worker threads: import nothing that needs the kernel.
import type { ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';
import { PlainTextBlocks } from './plain-text-blocks.js';
import { readTextLines } from '@docqa/plugin-api';

/** Extracts a plain text file as paragraphs and page breaks, reading it as a stream. */
export async function extract(input: ExtractorInput, signal?: AbortSignal): Promise<ExtractedDocument> {
  const blocks = new PlainTextBlocks();
  for await (const line of readTextLines(input.path, input.filename, signal)) {
    blocks.addLine(line);
  }
  signal?.throwIfAborted();
  // Plain text has no title markup: DocQA falls back to the file name.
  return { blocks: blocks.finish(), metadata: {} };
}
