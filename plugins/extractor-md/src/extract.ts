// Runs inside the ingestion pipeline's extraction worker threads: import nothing that needs the kernel.
import type { ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';
import { MarkdownBlocks } from './markdown-blocks.js';
import { readTextLines } from '@docqa/plugin-api';

/** Extracts a Markdown file as headings, paragraphs and table rows, reading it line by line. */
export async function extract(input: ExtractorInput, signal?: AbortSignal): Promise<ExtractedDocument> {
  const markdown = new MarkdownBlocks({ tables: input.options.tables });
  for await (const line of readTextLines(input.path, input.filename, signal)) {
    markdown.addLine(line);
  }
  signal?.throwIfAborted();
  return markdown.finish();
}
