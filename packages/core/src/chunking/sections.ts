import type { PlacedBlock } from './document-text.js';

/**
 * A run of content under one heading path. `headings` are the headings that open the section: usually
 * one, several when a heading is followed directly by its own sub-heading (the parent then has no
 * content of its own and is kept as part of the child's prefix instead of becoming an empty chunk).
 */
export interface Section {
  headingPath: string[];
  headings: PlacedBlock[];
  content: PlacedBlock[];
}

/** Groups blocks into sections; content before the first heading forms a section with an empty path. */
export function splitIntoSections(blocks: PlacedBlock[]): Section[] {
  const sections: Section[] = [];
  const openHeadings: PlacedBlock[] = [];
  let current: Section | undefined;
  for (const block of blocks) {
    if (block.kind !== 'heading') {
      if (!current) {
        current = { headingPath: [], headings: [], content: [] };
        sections.push(current);
      }
      current.content.push(block);
      continue;
    }
    while ((openHeadings.at(-1)?.level ?? 0) >= block.level) openHeadings.pop();
    openHeadings.push(block);
    const headingPath = openHeadings.map((heading) => heading.text.trim());
    const parentWithoutContent =
      current !== undefined &&
      current.content.length === 0 &&
      current.headings.length > 0 &&
      (current.headings.at(-1)?.level ?? 0) < block.level;
    if (current && parentWithoutContent) {
      current.headings.push(block);
      current.headingPath = headingPath;
    } else {
      current = { headingPath, headings: [block], content: [] };
      sections.push(current);
    }
  }
  return sections;
}

/** The longest heading path every section shares, for a chunk that spans several sections. */
export function commonHeadingPath(sections: Section[]): string[] {
  const [first, ...rest] = sections;
  if (!first) return [];
  let length = first.headingPath.length;
  for (const section of rest) {
    let same = 0;
    while (same < length && section.headingPath[same] === first.headingPath[same]) same++;
    length = same;
  }
  return first.headingPath.slice(0, length);
}
