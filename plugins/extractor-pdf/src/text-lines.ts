/** The part of a pdf.js text item the layout needs (`getTextContent().items`, minus marked content). */
export interface PositionedText {
  str: string;
  /** [scaleX, skewY, skewX, scaleY, x, y] in PDF units, y growing upwards. */
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

/** A run of text on one line, separated from the next by a wide gap: a table cell, perhaps. */
export interface LineCell {
  text: string;
  x: number;
  right: number;
}

export interface TextLine {
  text: string;
  /** Baseline height on the page. */
  y: number;
  fontSize: number;
  cells: LineCell[];
}

/** Items closer than this many font sizes belong to the same cell; wider gaps separate columns. */
const columnGapInFontSizes = 1.5;

/**
 * Joins a page's text items into lines. pdf.js gives items in content-stream order, which is reading
 * order for nearly every generated PDF, so the order is kept; a new line starts after an item marked
 * hasEOL or where the baseline moves by more than half a font size.
 */
export function joinIntoLines(items: readonly PositionedText[]): TextLine[] {
  const lines: TextLine[] = [];
  let current: { y: number; fontSize: number; cells: LineCell[] } | undefined;
  let breakBefore = false;
  // A whitespace-only item between two runs is a space even when the gap alone looks too narrow.
  let spaceBefore = false;
  for (const item of items) {
    const text = item.str;
    const x = item.transform[4] ?? 0;
    const y = item.transform[5] ?? 0;
    const fontSize = fontSizeOf(item);
    if (text.trim() !== '') {
      const sameLine = current && !breakBefore && Math.abs(current.y - y) <= Math.max(current.fontSize, fontSize) / 2;
      if (!current || !sameLine) {
        if (current) lines.push(finishLine(current));
        current = { y, fontSize, cells: [] };
      }
      addToLine(current, text, x, x + item.width, fontSize, spaceBefore);
      breakBefore = false;
      spaceBefore = /\s$/.test(text);
    } else if (text !== '') spaceBefore = true;
    if (item.hasEOL) breakBefore = true;
  }
  if (current) lines.push(finishLine(current));
  return lines;
}

function addToLine(
  line: { fontSize: number; cells: LineCell[] },
  text: string,
  x: number,
  right: number,
  fontSize: number,
  spaceBefore: boolean,
): void {
  line.fontSize = Math.max(line.fontSize, fontSize);
  const last = line.cells.at(-1);
  const gap = last ? x - last.right : Infinity;
  if (!last || gap > columnGapInFontSizes * fontSize) {
    line.cells.push({ text: text.trim(), x, right });
    return;
  }
  // A gap of more than a fifth of the font size is a space the PDF drew by moving, not by a glyph.
  const space = spaceBefore || gap > fontSize * 0.2 || /^\s/.test(text) ? ' ' : '';
  last.text = (last.text + space + text.trim()).replace(/\s+/g, ' ');
  last.right = Math.max(last.right, right);
}

function finishLine(line: { y: number; fontSize: number; cells: LineCell[] }): TextLine {
  return { ...line, text: line.cells.map((cell) => cell.text).join(' ') };
}

/** The vertical scale of the text matrix is the font size in page units; height when it is skewed. */
function fontSizeOf(item: PositionedText): number {
  const [, , skewX = 0, scaleY = 0] = item.transform;
  return Math.hypot(skewX, scaleY) || item.height || 1;
}
