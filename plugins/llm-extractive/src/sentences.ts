import { englishStopWords } from '@docqa/core';

/**
 * Splits a passage into the sentences an extractive answer may quote, in their order. A passage is
 * chunk text: paragraphs and headings separated by blank lines, sometimes hard-wrapped lines (PDF,
 * plain text), bullet lists and table rows. Each comes out as whole units a reader can follow on
 * their own, with whitespace collapsed and bullet markers dropped. `language` (ISO 639-1, null when
 * unknown) picks the sentence rules of Intl.Segmenter's locale.
 */
export function splitSentences(text: string, language: string | null = null): string[] {
  const segmenter = sentenceSegmenter(language);
  const sentences: string[] = [];
  for (const unit of lineUnits(text)) {
    if (unit.kind === 'tableRow') sentences.push(unit.text);
    else sentences.push(...splitProse(unit.text, segmenter));
  }
  return sentences.filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
}

interface LineUnit {
  kind: 'prose' | 'tableRow';
  text: string;
}

const bulletMarker = /^(?:[-*•‣◦▪–]|\d{1,3}[.)]|[a-z][)])\s+/;
const markdownTableSeparator = /^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$/;
// DocQA's extractors write table rows as "Header: value; Header: value" (formatTableRow) or, without
// headers, "cell | cell" (joinTableCells); Markdown tables arrive as "| cell | cell |".
const headedTableRow = /^[^:;]{1,60}: [^;]*(?:; [^:;]{1,60}: [^;]*)+$/;

function isTableRow(line: string): boolean {
  return line.includes(' | ') || /^\|.*\|$/.test(line) || headedTableRow.test(line);
}

/**
 * Groups lines into units: a blank line, a bullet or a table row always starts a new one; any other
 * line continues the previous prose unit only when it looks like a hard wrap (see `continuesLine`),
 * so a heading or an unmarked list line stays apart from the text after it.
 */
function lineUnits(text: string): LineUnit[] {
  const units: LineUnit[] = [];
  let prose: string[] = [];
  const endProse = () => {
    if (prose.length > 0) units.push({ kind: 'prose', text: prose.join(' ') });
    prose = [];
  };
  for (const rawLine of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = rawLine.trim();
    if (line === '' || markdownTableSeparator.test(line)) {
      endProse();
    } else if (isTableRow(line)) {
      endProse();
      units.push({ kind: 'tableRow', text: line.replace(/^\|\s*|\s*\|$/g, '').replace(/\s+/g, ' ') });
    } else if (bulletMarker.test(line)) {
      endProse();
      prose.push(line.replace(bulletMarker, ''));
    } else if (prose.length > 0 && continuesLine(prose[prose.length - 1]!, line)) {
      prose.push(line);
    } else {
      endProse();
      prose.push(line);
    }
  }
  endProse();
  return units;
}

/**
 * A line break inside a sentence: the previous line stops without ending (no terminal punctuation)
 * and either the next line starts in lower case, or the previous one ends on a comma, hyphen or a
 * word that cannot end a sentence ("sent to" / "Alice in finance."). Otherwise the break is taken
 * as structure: "Opening hours" / "Monday to Friday 9-17" stay two units.
 */
function continuesLine(previous: string, line: string): boolean {
  if (/[.!?…:。！？]["'”’)\]]*$/.test(previous)) return false;
  if (/^\p{Ll}/u.test(line) || /[,\-–]$/.test(previous)) return true;
  const lastWord = previous.match(/(\p{L}+)$/u)?.[1]?.toLowerCase();
  return lastWord !== undefined && englishStopWords.has(lastWord);
}

const segmenters = new Map<string, Intl.Segmenter>();

function sentenceSegmenter(language: string | null): Intl.Segmenter {
  const key = language ?? '';
  let segmenter = segmenters.get(key);
  if (!segmenter) {
    // A code ICU does not know falls back to the root locale's rules, which every language shares.
    segmenter = new Intl.Segmenter(language ?? undefined, { granularity: 'sentence' });
    segmenters.set(key, segmenter);
  }
  return segmenter;
}

/** Never end a sentence: titles, "e.g.", "i.e.", "vs." and the like. */
const abbreviations = new Set([
  'dr',
  'mr',
  'mrs',
  'ms',
  'prof',
  'st',
  'sr',
  'jr',
  'vs',
  'e.g',
  'i.e',
  'cf',
  'approx',
  'ca',
  'al',
  'incl',
  'esp',
  'resp',
]);

/**
 * Sentences of one prose unit by Unicode sentence boundaries (UAX #29 as ICU applies them, through
 * Intl.Segmenter in the passage's language): every script's terminal punctuation, CJK full stops
 * without a space, Arabic and Devanagari question marks and stops. ICU in Node has no abbreviation
 * suppressions, so a boundary after an abbreviation or an initial ("Dr. Smith", "J. Doe", "e.g. PDF",
 * "z. B.") is taken back; ICU itself never breaks before a lower-case word or a number ("p. 12").
 */
function splitProse(unit: string, segmenter: Intl.Segmenter): string[] {
  const text = unit.replace(/\s+/g, ' ').trim();
  const sentences: string[] = [];
  let pending = '';
  for (const { segment } of segmenter.segment(text)) {
    pending += segment;
    if (!endsWithAbbreviation(pending)) {
      sentences.push(pending);
      pending = '';
    }
  }
  if (pending !== '') sentences.push(pending);
  return sentences.map((sentence) => sentence.trim()).filter((sentence) => sentence !== '');
}

/** A segment ending on a period that belongs to an abbreviation or an initial, not to a sentence. */
function endsWithAbbreviation(segment: string): boolean {
  const word = (segment.trimEnd().match(/(\S+)\.$/)?.[1] ?? '').replace(/^["'“‘(\[]+/, '');
  if (word === '') return false;
  if (/^\p{L}$/u.test(word)) return true;
  return abbreviations.has(word.toLowerCase());
}
