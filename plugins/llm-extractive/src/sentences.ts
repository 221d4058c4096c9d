import { englishStopWords } from '@docqa/core';

/**
 * Splits a passage into the sentences an extractive answer may quote, in their order. A passage is
 * chunk text: paragraphs and headings separated by blank lines, sometimes hard-wrapped lines (PDF,
 * plain text), bullet lists and table rows. Each comes out as whole units a reader can follow on
 * their own, with whitespace collapsed and bullet markers dropped.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const unit of lineUnits(text)) {
    if (unit.kind === 'tableRow') sentences.push(unit.text);
    else sentences.push(...splitProse(unit.text));
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

// Terminal punctuation with any closing quotes or brackets, then the space before the next sentence.
// CJK full stops need no space after them.
const candidateBoundary = /[.!?…]+["'”’)\]]*\s+|[。！？]+[」』"'”’)\]]*\s*/g;

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
/** End no sentence when a number follows: "No. 5", "p. 12", "Fig. 3", "Jan. 2024". */
const numberAbbreviations = new Set([
  'no',
  'nos',
  'p',
  'pp',
  'fig',
  'figs',
  'vol',
  'ch',
  'sec',
  'art',
  'para',
  'ref',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
]);

/**
 * Sentences of one prose unit. A period ends a sentence only before white space and a word that
 * does not start in lower case, and not after an abbreviation or an initial ("J. Smith"). Decimals
 * ("3.5"), versions and dotted abbreviations inside words never match, as no space follows the dot.
 */
function splitProse(unit: string): string[] {
  const text = unit.replace(/\s+/g, ' ').trim();
  const sentences: string[] = [];
  let start = 0;
  for (const match of text.matchAll(candidateBoundary)) {
    const nextStart = match.index + match[0].length;
    const next = text[nextStart];
    if (next === undefined) continue;
    const isCjk = /^[。！？]/.test(match[0]);
    if (!isCjk && /\p{Ll}/u.test(next)) continue;
    if (
      match[0].startsWith('.') &&
      !match[0].startsWith('..') &&
      periodIsAbbreviation(text.slice(start, match.index), next)
    )
      continue;
    sentences.push(text.slice(start, match.index + match[0].trimEnd().length));
    start = nextStart;
  }
  sentences.push(text.slice(start));
  return sentences.map((sentence) => sentence.trim()).filter((sentence) => sentence !== '');
}

function periodIsAbbreviation(textBefore: string, nextCharacter: string): boolean {
  const word = (textBefore.match(/(\S+)$/)?.[1] ?? '').replace(/^["'“‘(\[]+/, '');
  if (/^\p{Lu}$/u.test(word)) return true;
  const lower = word.toLowerCase();
  if (abbreviations.has(lower)) return true;
  return numberAbbreviations.has(lower) && /\d/.test(nextCharacter);
}
