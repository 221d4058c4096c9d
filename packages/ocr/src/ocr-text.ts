import type Tesseract from 'tesseract.js';

/**
 * Paragraphs tesseract is this unsure of are mostly noise read from photos, lines and stains
 * ("| ~ ;"); indexing them only pollutes search.
 */
export const minParagraphConfidence = 25;

/** What one page yielded: its paragraphs and the confidence of each word kept. */
export interface PageText {
  paragraphs: string[];
  wordConfidences: number[];
  /** Median height of the text lines (of letters or digits), in pixels; 0 when no line was found. */
  lineHeight: number;
}

/**
 * Turns tesseract's layout into paragraphs: lines joined with spaces (a line end inside a paragraph
 * is layout, not meaning), words hyphenated across a line end joined again.
 */
export function pageText(page: Tesseract.Page): PageText {
  const paragraphs: string[] = [];
  const wordConfidences: number[] = [];
  const lineHeights: number[] = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      const lines = paragraph.lines.map((line) => line.text.trim()).filter((line) => line !== '');
      const text = joinLines(lines);
      if (!/[\p{L}\p{N}]/u.test(text)) continue;
      // Measured before the confidence filter: text too small to read well is read with low confidence.
      for (const line of paragraph.lines) lineHeights.push(line.bbox.y1 - line.bbox.y0);
      if (paragraph.confidence < minParagraphConfidence) continue;
      paragraphs.push(text);
      for (const line of paragraph.lines) for (const word of line.words) wordConfidences.push(word.confidence);
    }
  }
  return { paragraphs, wordConfidences, lineHeight: median(lineHeights) };
}

function joinLines(lines: readonly string[]): string {
  let text = '';
  for (const line of lines) {
    if (text === '') text = line;
    // "photo-" + "synthesis": a word broken at the margin; "well-" + "Known" stays as written.
    else if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(line)) text = text.slice(0, -1) + line;
    else text = `${text} ${line}`;
  }
  return text;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function meanConfidence(confidences: readonly number[]): number {
  return confidences.length === 0 ? 0 : confidences.reduce((sum, value) => sum + value, 0) / confidences.length;
}
