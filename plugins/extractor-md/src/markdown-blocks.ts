import type { ExtractedBlock, ExtractedDocument } from '@docqa/plugin-api';
import { frontMatterMetadata } from './front-matter.js';
import { plainInlineText } from './inline-markup.js';
import { isDelimiterRow, labelledRow, tableCells } from './pipe-table.js';

/** The block being collected while lines arrive; a blank line or a new kind of block closes it. */
type OpenBlock =
  | { type: 'none' }
  | { type: 'front_matter'; lines: string[] }
  | { type: 'paragraph'; lines: string[] }
  | { type: 'list'; lines: string[] }
  | { type: 'fence'; marker: string; lines: string[] }
  | { type: 'table'; headers: string[]; rows: string[][] };

const atxHeading = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const setextUnderline = /^ {0,3}(=+|-+)[ \t]*$/;
const thematicBreak = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const fenceOpening = /^ {0,3}(`{3,}(?=[^`]*$)|~{3,})/;
const listItem = /^ {0,3}([-+*]|\d{1,9}[.)])(?:[ \t]+(.*)|$)/;
const blockquoteMarker = /^ {0,3}>[ \t]?/;

/**
 * A small line-based Markdown reader: it keeps the structure retrieval needs (headings with their
 * levels, paragraphs, lists, code, tables, front matter) and drops the rest of the syntax. Lines are
 * fed one at a time, so a file is read as a stream. It follows CommonMark where that is cheap (ATX and
 * setext headings, fences that hide headings, thematic breaks) and simplifies elsewhere: a blockquote
 * is read as paragraph text, a list with its continuation lines is one paragraph.
 */
export class MarkdownBlocks {
  private readonly blocks: ExtractedBlock[] = [];
  private metadata: Record<string, string> = {};
  private open: OpenBlock = { type: 'none' };
  private firstLine = true;

  constructor(private readonly options: { tables: boolean }) {}

  addLine(line: string): void {
    const isFirstLine = this.firstLine;
    this.firstLine = false;
    const open = this.open;
    if (isFirstLine && line.trimEnd() === '---') {
      this.open = { type: 'front_matter', lines: [] };
      return;
    }
    if (open.type === 'front_matter') return this.addFrontMatterLine(open, line);
    if (open.type === 'fence') return this.addFenceLine(open, line);
    if (line.trim() === '') return this.close();

    const fence = fenceOpening.exec(line);
    if (fence) {
      this.close();
      this.open = { type: 'fence', marker: fence[1]!, lines: [] };
      return;
    }
    const heading = atxHeading.exec(line);
    if (heading) {
      this.close();
      this.pushHeading(heading[1]!.length, heading[2] ?? '');
      return;
    }
    const underline = setextUnderline.exec(line);
    if (underline && open.type === 'paragraph') {
      this.open = { type: 'none' };
      this.pushHeading(underline[1]!.startsWith('=') ? 1 : 2, open.lines.join(' '));
      return;
    }
    if (thematicBreak.test(line)) return this.close();

    if (open.type === 'table') {
      if (line.includes('|')) {
        open.rows.push(tableCells(line));
        return;
      }
      this.close();
    }
    if (open.type === 'paragraph' && open.lines.length === 1 && open.lines[0]!.includes('|') && isDelimiterRow(line)) {
      this.open = { type: 'table', headers: tableCells(open.lines[0]!), rows: [] };
      return;
    }
    const item = listItem.exec(line);
    if (item) {
      // An unordered marker becomes '-', so the text reads the same whichever of -, + or * was used.
      const marker = /^[-+*]$/.test(item[1]!) ? '-' : item[1]!;
      const text = `${marker} ${plainInlineText((item[2] ?? '').trim())}`.trimEnd();
      if (open.type === 'list') open.lines.push(text);
      else {
        this.close();
        this.open = { type: 'list', lines: [text] };
      }
      return;
    }
    const text = line.replace(blockquoteMarker, '').trim();
    if (text === '') return this.close();
    if (open.type === 'list') open.lines.push(plainInlineText(text));
    else if (open.type === 'paragraph') open.lines.push(text);
    else this.open = { type: 'paragraph', lines: [text] };
  }

  finish(): ExtractedDocument {
    const open = this.open;
    if (open.type === 'front_matter') {
      // Never closed: it was a thematic break followed by ordinary Markdown after all.
      this.open = { type: 'none' };
      for (const line of open.lines) this.addLine(line);
    }
    this.close();
    const firstTopHeading = this.blocks.find((block) => block.kind === 'heading' && block.level === 1);
    const title = this.metadata.title ?? firstTopHeading?.text;
    return { ...(title ? { title } : {}), blocks: this.blocks, metadata: this.metadata };
  }

  private addFrontMatterLine(open: { lines: string[] }, line: string): void {
    if (line.trimEnd() === '---' || line.trimEnd() === '...') {
      this.metadata = frontMatterMetadata(open.lines);
      this.open = { type: 'none' };
    } else {
      open.lines.push(line);
    }
  }

  private addFenceLine(open: { marker: string; lines: string[] }, line: string): void {
    const closing = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
    if (closing && closing[1]![0] === open.marker[0] && closing[1]!.length >= open.marker.length) this.close();
    else open.lines.push(line);
  }

  private pushHeading(level: number, markdown: string): void {
    const text = plainInlineText(markdown.trim());
    if (text) this.blocks.push({ kind: 'heading', text, level });
  }

  private pushParagraph(text: string): void {
    if (text.trim()) this.blocks.push({ kind: 'paragraph', text });
  }

  /** Ends the open block, turning what it collected into blocks. */
  private close(): void {
    const open = this.open;
    this.open = { type: 'none' };
    switch (open.type) {
      case 'paragraph':
        return this.pushParagraph(plainInlineText(open.lines.join(' ')));
      case 'list':
        return this.pushParagraph(open.lines.join('\n'));
      case 'fence':
        // Code stays verbatim (indentation included); only blank lines around it are dropped.
        return this.pushParagraph(open.lines.join('\n').replace(/^(?:[ \t]*\n)+|(?:\n[ \t]*)+$/g, ''));
      case 'table':
        return this.closeTable(open.headers, open.rows);
      case 'front_matter':
      case 'none':
        return;
    }
  }

  private closeTable(headers: string[], rows: string[][]): void {
    if (this.options.tables) {
      for (const row of rows) {
        const text = labelledRow(headers, row);
        if (text) this.blocks.push({ kind: 'table_row', text });
      }
      return;
    }
    // Without table extraction the table is one paragraph, a line per row, header first.
    this.pushParagraph(
      [headers, ...rows]
        .map((cells) => cells.filter((cell) => cell !== '').join(' | '))
        .filter((line) => line !== '')
        .join('\n'),
    );
  }
}
