import { DocqaError, type ExtractedDocument } from '@docqa/plugin-api';
import { BLOCK_SEPARATOR, layoutBlocks, type PlacedBlock } from './document-text.js';
import { commonHeadingPath, splitIntoSections, type Section } from './sections.js';
import { estimateTokens, sentenceSpans } from './text-spans.js';
import { resolveSplitPoints, sectionUnits, type Unit, type UnitLimits } from './units.js';

export interface Chunk {
  index: number;
  /** Exactly `documentText(document).slice(start, end)`. */
  text: string;
  headingPath: string[];
  pageStart?: number;
  pageEnd?: number;
  /** The first and last spreadsheet rows of the blocks the chunk covers (ExtractedBlock.row). */
  rowStart?: number;
  rowEnd?: number;
  kind: 'text' | 'table';
  start: number;
  end: number;
}

export interface ChunkingOptions {
  /** Tokens a chunk is packed up to, e.g. 256. */
  targetTokens: number;
  /** Hard cap per chunk; a longer block is split. Default 2 × targetTokens. */
  maxTokens?: number;
  /** Trailing sentences of the previous text chunk of the same section repeated at the start. Default 0. */
  overlapTokens?: number;
  /** RAG_MIN_CHUNK_LENGTH: chunks with fewer characters are merged into a neighbour or dropped. */
  minChunkLength: number;
  /** Offsets into `documentText(document)` where a chunk must start (chunk_boundary rule matches). */
  boundaries?: number[];
  /** Default `estimateTokens` (about 1.3 tokens per word). */
  countTokens?: (text: string) => number;
}

/** A chunk while it is being built; `sectionIndex` keeps sections apart through every later step. */
interface Draft {
  sectionIndex: number;
  start: number;
  /** Where the content starts, after the heading prefix (overlap never repeats a heading). */
  contentStart: number;
  end: number;
  kind: 'text' | 'table';
  tokens: number;
  /** Starts at a forced boundary: never merged across, never overlapped into. */
  forced: boolean;
}

/**
 * Splits an extracted document into chunks that follow its structure. Chunks never mix two heading
 * paths; a section's first chunk starts with its heading; paragraphs and table rows are packed up to
 * the target; chunks shorter than `minChunkLength` join the previous chunk of their section (or, for
 * a section's first chunk, the next one, so the heading prefix survives). A short section with no
 * such neighbour joins the chunk before it, or after it, across the heading; only forced boundaries
 * on both sides keep it a short chunk of its own. No text is dropped, and a document too small to
 * make any chunk of the minimum length yields one chunk of its whole text. The output depends only on the input: same
 * document and options, same chunks.
 */
export function chunkDocument(document: ExtractedDocument, options: ChunkingOptions): Chunk[] {
  const limits = resolveLimits(options);
  const blocks = layoutBlocks(document);
  const text = blocks.map((block) => block.text).join(BLOCK_SEPARATOR);
  const sections = splitIntoSections(blocks);
  const splitPoints = resolveSplitPoints(options.boundaries ?? [], sections, text);

  const drafts = sections.flatMap((section, sectionIndex) =>
    packSection(section, sectionIndex, text, splitPoints, limits),
  );
  let kept = mergeShortDrafts(drafts, text, options.minChunkLength);
  if (kept.length === 0 && text.trim() !== '') {
    kept = [wholeDocumentDraft(blocks, text)];
  }
  applyOverlap(kept, text, options.overlapTokens ?? 0, limits.countTokens);
  return kept.map((draft, index) => toChunk(draft, index, text, blocks, sections));
}

function resolveLimits(options: ChunkingOptions): UnitLimits {
  const { targetTokens, minChunkLength } = options;
  const maxTokens = options.maxTokens ?? targetTokens * 2;
  const overlap = options.overlapTokens ?? 0;
  if (!Number.isInteger(targetTokens) || targetTokens < 1) throw invalid('targetTokens must be a positive integer');
  if (!Number.isInteger(maxTokens) || maxTokens < targetTokens)
    throw invalid('maxTokens must be an integer of at least targetTokens');
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= targetTokens)
    throw invalid('overlapTokens must be an integer from 0 to targetTokens - 1');
  if (!Number.isInteger(minChunkLength) || minChunkLength < 0)
    throw invalid('minChunkLength must be a non-negative integer');
  return { targetTokens, maxTokens, countTokens: options.countTokens ?? estimateTokens };
}

function invalid(message: string): DocqaError {
  return new DocqaError('bad_request', `Invalid chunking options: ${message}.`);
}

function packSection(
  section: Section,
  sectionIndex: number,
  text: string,
  splitPoints: Set<number>,
  limits: UnitLimits,
): Draft[] {
  const firstHeading = section.headings[0];
  const lastHeading = section.headings.at(-1);
  const headingTokens =
    firstHeading && lastHeading ? limits.countTokens(text.slice(firstHeading.start, lastHeading.end)) : 0;
  const sectionStart = firstHeading?.start;
  const firstCap = Math.max(1, limits.maxTokens - headingTokens);
  const units = sectionUnits(section, text, splitPoints, firstCap, limits);

  if (units.length === 0 && firstHeading && lastHeading) {
    const forced = splitPoints.has(firstHeading.start);
    return [
      {
        sectionIndex,
        start: firstHeading.start,
        contentStart: lastHeading.end,
        end: lastHeading.end,
        kind: 'text',
        tokens: headingTokens,
        forced,
      },
    ];
  }
  const drafts: Draft[] = [];
  let current: Draft | undefined;
  for (const unit of units) {
    if (current && fits(current, unit, limits.targetTokens)) {
      current.end = unit.end;
      current.tokens += unit.tokens;
      continue;
    }
    if (current) drafts.push(current);
    const isFirst = current === undefined;
    current = {
      sectionIndex,
      start: isFirst && sectionStart !== undefined ? sectionStart : unit.start,
      contentStart: unit.start,
      end: unit.end,
      kind: unit.kind,
      tokens: unit.tokens + (isFirst ? headingTokens : 0),
      forced: unit.forced || (isFirst && sectionStart !== undefined && splitPoints.has(sectionStart)),
    };
  }
  if (current) drafts.push(current);
  return drafts;
}

function fits(current: Draft, unit: Unit, targetTokens: number): boolean {
  return !unit.forced && unit.kind === current.kind && current.tokens + unit.tokens <= targetTokens;
}

function mergeShortDrafts(drafts: Draft[], text: string, minChunkLength: number): Draft[] {
  const kept: Array<Draft & { short?: boolean }> = [];
  let carried: Draft | undefined;
  const length = (draft: Draft) => text.slice(draft.start, draft.end).trim().length;
  const keepShort = (draft: Draft) => kept.push({ ...draft, short: true });
  for (const original of drafts) {
    let draft = original;
    if (carried && carried.sectionIndex === draft.sectionIndex && !draft.forced) {
      // The short first chunk of the section moves into this one, heading prefix and all.
      draft = {
        ...draft,
        start: carried.start,
        contentStart: carried.contentStart,
        tokens: draft.tokens + carried.tokens,
        forced: carried.forced,
      };
    } else if (carried) {
      keepShort(carried);
    }
    carried = undefined;
    if (length(draft) >= minChunkLength) {
      kept.push(draft);
      continue;
    }
    const previous = kept.at(-1);
    if (previous && previous.sectionIndex === draft.sectionIndex && !draft.forced) {
      previous.end = draft.end;
      previous.tokens += draft.tokens;
    } else {
      carried = draft;
    }
  }
  if (carried) keepShort(carried);
  return joinShortSections(kept);
}

/**
 * A short section alone in its section ("Region: EU" under its own heading) joins the chunk before
 * it, or else the one after it, heading and all, so it stays searchable; only a forced boundary on
 * both sides keeps it as a short chunk of its own. Text is never dropped.
 */
function joinShortSections(drafts: Array<Draft & { short?: boolean }>): Draft[] {
  const joined: Draft[] = [];
  let pending: Draft | undefined;
  for (const { short, ...draft } of drafts) {
    if (pending && !draft.forced) {
      draft.start = pending.start;
      draft.contentStart = pending.start;
      draft.tokens += pending.tokens;
      draft.forced = pending.forced;
      pending = undefined;
    } else if (pending) {
      joined.push(pending);
      pending = undefined;
    }
    const previous = joined.at(-1);
    if (!short) joined.push(draft);
    else if (previous && !draft.forced) {
      previous.end = draft.end;
      previous.tokens += draft.tokens;
    } else pending = draft;
  }
  if (pending) joined.push(pending);
  return joined;
}

function wholeDocumentDraft(blocks: PlacedBlock[], text: string): Draft {
  const content = blocks.filter((block) => block.kind !== 'heading');
  const allRows = content.length > 0 && content.every((block) => block.kind === 'table_row');
  return {
    sectionIndex: -1,
    start: 0,
    contentStart: 0,
    end: text.length,
    kind: allRows ? 'table' : 'text',
    tokens: 0,
    forced: false,
  };
}

function applyOverlap(
  drafts: Draft[],
  text: string,
  overlapTokens: number,
  countTokens: (text: string) => number,
): void {
  if (overlapTokens === 0) return;
  // Walk backwards so each chunk borrows from the previous chunk's original (unextended) span.
  for (let index = drafts.length - 1; index > 0; index--) {
    const draft = drafts[index];
    const previous = drafts[index - 1];
    if (!draft || !previous || draft.forced || draft.sectionIndex !== previous.sectionIndex) continue;
    if (draft.kind !== 'text' || previous.kind !== 'text') continue; // table chunks repeat nothing
    const sentences = sentenceSpans(text.slice(previous.contentStart, previous.end), previous.contentStart);
    let start = draft.start;
    for (let s = sentences.length - 1; s >= 0; s--) {
      const sentence = sentences[s];
      if (!sentence || countTokens(text.slice(sentence.start, draft.start)) > overlapTokens) break;
      start = sentence.start;
    }
    draft.start = start;
  }
}

function toChunk(draft: Draft, index: number, text: string, blocks: PlacedBlock[], sections: Section[]): Chunk {
  // The whole-document fallback (sectionIndex -1) may span sections: it gets the path they share.
  const headingPath =
    draft.sectionIndex < 0 ? commonHeadingPath(sections) : (sections[draft.sectionIndex]?.headingPath ?? []);
  const chunk: Chunk = {
    index,
    text: text.slice(draft.start, draft.end),
    headingPath: [...headingPath],
    kind: draft.kind,
    start: draft.start,
    end: draft.end,
  };
  const pageStart = pageAt(blocks, draft.start);
  const pageEnd = pageAt(blocks, Math.max(draft.start, draft.end - 1));
  if (pageStart !== undefined) chunk.pageStart = pageStart;
  if (pageEnd !== undefined) chunk.pageEnd = pageEnd;
  const rows = rowsWithin(blocks, draft.start, draft.end);
  if (rows) {
    chunk.rowStart = rows.first;
    chunk.rowEnd = rows.last;
  }
  return chunk;
}

/**
 * The lowest and highest rows of the blocks overlapping [start, end): a binary search to the first
 * block ending after `start`, then a walk over the chunk's own blocks, so a workbook of a million
 * rows costs each chunk its own blocks, not all of them.
 */
function rowsWithin(blocks: PlacedBlock[], start: number, end: number): { first: number; last: number } | null {
  let low = 0;
  let high = blocks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((blocks[middle]?.end ?? Infinity) <= start) low = middle + 1;
    else high = middle;
  }
  let found: { first: number; last: number } | null = null;
  for (let i = low; i < blocks.length && (blocks[i]?.start ?? Infinity) < end; i++) {
    const row = blocks[i]?.row;
    if (row === undefined) continue;
    found = found ? { first: Math.min(found.first, row), last: Math.max(found.last, row) } : { first: row, last: row };
  }
  return found;
}

/** The page of the last block starting at or before `offset` (binary search: blocks are in order). */
function pageAt(blocks: PlacedBlock[], offset: number): number | undefined {
  let low = 0;
  let high = blocks.length - 1;
  let found: PlacedBlock | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const block = blocks[middle];
    if (!block) break;
    if (block.start <= offset) {
      found = block;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found?.page;
}
