import type { ExtractedBlock } from '@docqa/plugin-api';

/**
 * A paragraph longer than this is cut at a line end, so that a log file without blank lines becomes
 * many blocks rather than one string the size of the file.
 */
export const maxParagraphChars = 64 * 1024;

/**
 * Turns the lines of a plain text file into blocks: paragraphs are separated by blank lines, and a
 * form feed ends a page (a page_break block, which carries no text). Every block carries its page.
 */
export class PlainTextBlocks {
  private readonly blocks: ExtractedBlock[] = [];
  private paragraph: string[] = [];
  private paragraphChars = 0;
  private page = 1;

  addLine(line: string): void {
    const pieces = line.split('\f');
    pieces.forEach((piece, index) => {
      if (index > 0) this.breakPage();
      this.addPiece(piece);
    });
  }

  finish(): ExtractedBlock[] {
    this.flushParagraph();
    // A file that ends with a form feed (printer output often does) has no empty page after it.
    if (this.blocks.at(-1)?.kind === 'page_break') this.blocks.pop();
    return this.blocks;
  }

  private addPiece(piece: string): void {
    const line = piece.trimEnd();
    if (line.trim() === '') {
      this.flushParagraph();
      return;
    }
    if (this.paragraphChars + line.length > maxParagraphChars) this.flushParagraph();
    this.paragraph.push(line);
    this.paragraphChars += line.length + 1;
  }

  private breakPage(): void {
    this.flushParagraph();
    this.blocks.push({ kind: 'page_break', text: '', page: this.page });
    this.page += 1;
  }

  private flushParagraph(): void {
    const text = this.paragraph.join('\n').trim();
    if (text) this.blocks.push({ kind: 'paragraph', text, page: this.page });
    this.paragraph = [];
    this.paragraphChars = 0;
  }
}
