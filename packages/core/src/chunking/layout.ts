import type { ExtractedDocument } from '@docqa/plugin-api';
import { layoutBlocks, type PlacedBlock } from './document-text.js';
import { splitIntoSections } from './sections.js';

/** A run of `documentText` under one heading path, headings included. */
export interface LayoutSection {
  heading_path: string[];
  char_start: number;
  char_end: number;
  page_start: number | null;
  page_end: number | null;
}

export interface LayoutPage {
  page: number;
  char_start: number;
  char_end: number;
}

/** The map of `documentText(document)`: its sections, and its pages when the format has any. */
export interface TextLayout {
  sections: LayoutSection[];
  pages: LayoutPage[];
}

/**
 * Sections as the chunker sees them (a heading followed at once by its sub-heading opens the
 * sub-heading's section), so every chunk lies inside one section and has its heading path. Pages
 * are runs of blocks on one page; a page without text has no run.
 */
export function documentLayout(document: ExtractedDocument): TextLayout {
  const blocks = layoutBlocks(document);
  const sections = splitIntoSections(blocks).map((section) => {
    const placed = [...section.headings, ...section.content];
    let pageStart: number | null = null;
    let pageEnd: number | null = null;
    for (const { page } of placed) {
      if (page === undefined) continue;
      pageStart = Math.min(pageStart ?? page, page);
      pageEnd = Math.max(pageEnd ?? page, page);
    }
    return {
      heading_path: section.headingPath,
      char_start: placed[0]?.start ?? 0,
      char_end: placed.at(-1)?.end ?? 0,
      page_start: pageStart,
      page_end: pageEnd,
    };
  });
  return { sections, pages: pageRuns(blocks) };
}

function pageRuns(blocks: PlacedBlock[]): LayoutPage[] {
  const pages: LayoutPage[] = [];
  for (const block of blocks) {
    if (block.page === undefined) continue;
    const last = pages.at(-1);
    if (last && last.page === block.page) last.char_end = block.end;
    else pages.push({ page: block.page, char_start: block.start, char_end: block.end });
  }
  return pages;
}
