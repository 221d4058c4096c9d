/** A half-open span [start, end) of the document text. */
export interface Span {
  start: number;
  end: number;
}

/**
 * The default token counter: about 1.3 tokens per whitespace-separated word, the usual ratio of
 * subword tokenizers on English prose. It is fast and close enough for packing; pass the embedder's
 * real counter when exact budgets matter.
 */
export function estimateTokens(text: string): number {
  const words = text.match(/\S+/g)?.length ?? 0;
  return Math.ceil(words * 1.3);
}

// A sentence ends at terminal punctuation (with closing quotes or brackets) followed by whitespace,
// or at a line break; the next sentence starts at the first character after that whitespace.
const SENTENCE_END = /(?<=[.!?…]["'”’)\]]*)\s+|\n\s*/g;

/** Sentences of `text`, as spans shifted by `offset`; whitespace between them is left out. */
export function sentenceSpans(text: string, offset = 0): Span[] {
  return splitAt(text, offset, SENTENCE_END);
}

/** Whitespace-separated words of `text`, as spans shifted by `offset`. */
export function wordSpans(text: string, offset = 0): Span[] {
  return splitAt(text, offset, /\s+/g);
}

function splitAt(text: string, offset: number, separator: RegExp): Span[] {
  const spans: Span[] = [];
  let start = text.length - text.trimStart().length;
  for (const match of text.matchAll(separator)) {
    const end = match.index;
    if (end > start) spans.push({ start: offset + start, end: offset + end });
    start = Math.max(start, end + match[0].length);
  }
  const end = text.trimEnd().length;
  if (end > start) spans.push({ start: offset + start, end: offset + end });
  return spans;
}

/**
 * Greedily packs consecutive spans into groups of at most `budget` tokens (a single span larger than
 * the budget forms its own group). Tokens are counted on the text the group would cover.
 */
export function packSpans(spans: Span[], text: string, budget: number, countTokens: (t: string) => number): Span[] {
  const groups: Span[] = [];
  let current: Span | undefined;
  for (const span of spans) {
    if (current && countTokens(text.slice(current.start, span.end)) <= budget) {
      current.end = span.end;
      continue;
    }
    if (current) groups.push(current);
    current = { ...span };
  }
  if (current) groups.push(current);
  return groups;
}
