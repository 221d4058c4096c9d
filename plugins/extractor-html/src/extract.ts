// Runs inside the ingestion pipeline's extraction worker threads: import nothing that needs the kernel.
import type { ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';
import { htmlToDocument } from './html-blocks.js';
import { readHtmlFile } from './read-html.js';

/** Extracts an HTML page as headings, paragraphs and table rows, without scripts and page furniture. */
export async function extract(input: ExtractorInput, signal?: AbortSignal): Promise<ExtractedDocument> {
  signal?.throwIfAborted();
  const html = await readHtmlFile(input.path, input.filename, signal);
  signal?.throwIfAborted();
  const document = htmlToDocument(html, { tables: input.options.tables });
  signal?.throwIfAborted();
  return document;
}
