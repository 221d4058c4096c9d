import type { ExtractedBlock, ExtractedDocument } from '@docqa/plugin-api';

/** Separator between blocks in the joined document text. */
export const BLOCK_SEPARATOR = '\n\n';

/** A text-bearing block with its place in the joined text and the page it is on. */
export interface PlacedBlock {
  kind: 'heading' | 'paragraph' | 'table_row';
  text: string;
  level: number;
  start: number;
  end: number;
  page: number | undefined;
  /** The spreadsheet row the block came from (ExtractedBlock.row). */
  row: number | undefined;
}

/**
 * Places every text-bearing block in the joined text. Page breaks and blocks without text are left
 * out of the text (they would only add empty separators), but page breaks still advance the page.
 *
 * Pages: a block's own `page` wins; a page break moves to its `page` if given, else the next page.
 * When the document carries any page information, content before the first break is page 1.
 */
export function layoutBlocks(document: ExtractedDocument): PlacedBlock[] {
  const hasPages = document.blocks.some((block) => block.kind === 'page_break' || block.page !== undefined);
  let page: number | undefined = hasPages ? 1 : undefined;
  let offset = 0;
  const placed: PlacedBlock[] = [];
  for (const block of document.blocks) {
    if (block.kind === 'page_break') {
      page = block.page ?? (page ?? 1) + 1;
      continue;
    }
    if (block.page !== undefined) page = block.page;
    if (block.text.trim() === '') continue;
    if (placed.length > 0) offset += BLOCK_SEPARATOR.length;
    placed.push(placeBlock(block, offset, page));
    offset += block.text.length;
  }
  return placed;
}

function placeBlock(block: ExtractedBlock, start: number, page: number | undefined): PlacedBlock {
  const kind = block.kind === 'page_break' ? 'paragraph' : block.kind;
  const end = start + block.text.length;
  return { kind, text: block.text, level: block.level ?? 1, start, end, page, row: block.row };
}

/**
 * The joined text of a document: text-bearing blocks (headings included) joined with a blank line.
 * Chunk offsets and metadata rule matches are both positions in this string, which is why rules
 * and chunking must agree on it.
 */
export function documentText(document: ExtractedDocument): string {
  return layoutBlocks(document)
    .map((block) => block.text)
    .join(BLOCK_SEPARATOR);
}
