import type { PlacedBlock } from './document-text.js';
import type { Section } from './sections.js';
import { packSpans, sentenceSpans, wordSpans, type Span } from './text-spans.js';

/** The smallest piece the packer moves around: a block, or a part of one that was too long. */
export interface Unit extends Span {
  kind: 'text' | 'table';
  tokens: number;
  /** A chunk_boundary rule forces a chunk to start here. */
  forced: boolean;
}

export interface UnitLimits {
  targetTokens: number;
  maxTokens: number;
  countTokens: (text: string) => number;
}

/**
 * Where forced chunks start: for each boundary offset, the first block start or sentence start at
 * or after it. A point on a section's first content block moves to the section's start, so a
 * heading stays with its content.
 */
export function resolveSplitPoints(boundaries: number[], sections: Section[], text: string): Set<number> {
  const candidates: number[] = [];
  const sectionStartOf = new Map<number, number>();
  for (const section of sections) {
    const [firstHeading] = section.headings;
    const [firstContent] = section.content;
    if (firstHeading) candidates.push(firstHeading.start);
    if (firstHeading && firstContent) sectionStartOf.set(firstContent.start, firstHeading.start);
    for (const block of section.content) {
      if (block.kind === 'paragraph') {
        for (const sentence of sentenceSpans(block.text, block.start)) candidates.push(sentence.start);
      } else {
        candidates.push(block.start);
      }
    }
  }
  candidates.sort((a, b) => a - b);
  const points = new Set<number>();
  for (const boundary of boundaries) {
    if (boundary < 0 || boundary > text.length) continue;
    const point = candidates.find((candidate) => candidate >= boundary);
    if (point !== undefined) points.add(sectionStartOf.get(point) ?? point);
  }
  return points;
}

/**
 * Cuts a section's content into units: one per block, a paragraph also cut at forced split points,
 * and any piece over `cap` tokens split at sentences (then words) into pieces of at most the target.
 */
export function sectionUnits(
  section: Section,
  text: string,
  splitPoints: Set<number>,
  firstCap: number,
  limits: UnitLimits,
): Unit[] {
  const units: Unit[] = [];
  for (const block of section.content) {
    for (const segment of cutAtSplitPoints(block, splitPoints)) {
      const cap = units.length === 0 ? firstCap : limits.maxTokens;
      const pieces = splitIfTooLong(block, segment, text, cap, limits);
      pieces.forEach((piece, index) => {
        units.push({
          ...piece,
          kind: block.kind === 'table_row' ? 'table' : 'text',
          tokens: limits.countTokens(text.slice(piece.start, piece.end)),
          forced: index === 0 && splitPoints.has(segment.start),
        });
      });
    }
  }
  return units;
}

function cutAtSplitPoints(block: PlacedBlock, splitPoints: Set<number>): Span[] {
  if (block.kind !== 'paragraph') return [{ start: block.start, end: block.end }];
  const segments: Span[] = [];
  let start = block.start;
  for (const sentence of sentenceSpans(block.text, block.start)) {
    if (sentence.start > start && splitPoints.has(sentence.start)) {
      segments.push({ start, end: trimmedEnd(block, sentence.start) });
      start = sentence.start;
    }
  }
  segments.push({ start, end: block.end });
  return segments;
}

function trimmedEnd(block: PlacedBlock, end: number): number {
  return block.start + block.text.slice(0, end - block.start).trimEnd().length;
}

function splitIfTooLong(block: PlacedBlock, segment: Span, text: string, cap: number, limits: UnitLimits): Span[] {
  const segmentText = text.slice(segment.start, segment.end);
  if (limits.countTokens(segmentText) <= cap) return [segment];
  const target = Math.min(limits.targetTokens, cap);
  const words = (span: Span) => wordSpans(text.slice(span.start, span.end), span.start);
  // Table rows have no sentences: a row too long on its own is cut between words.
  if (block.kind === 'table_row') return packSpans(words(segment), text, target, limits.countTokens);
  const pieces: Span[] = [];
  for (const sentence of sentenceSpans(segmentText, segment.start)) {
    const tooLong = limits.countTokens(text.slice(sentence.start, sentence.end)) > target;
    pieces.push(...(tooLong ? packSpans(words(sentence), text, target, limits.countTokens) : [sentence]));
  }
  return packSpans(pieces, text, target, limits.countTokens);
}
