import type { ExtractedBlock } from '@docqa/plugin-api';
import { formatTableRow, joinTableCells as joinCells } from '@docqa/plugin-api';

/**
 * Turns mammoth's HTML into blocks. mammoth writes a small, well-formed subset of HTML (headings,
 * paragraphs, lists, tables, inline formatting, links, images), so a tag scanner is enough and no
 * DOM library is needed: text is gathered until a block-level tag opens or closes.
 */
export function htmlToBlocks(html: string, options: { tables: boolean }): ExtractedBlock[] {
  const walker = new BlockWalker(options.tables);
  const tagPattern = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*?(\/?)>/g;
  let last = 0;
  for (const match of html.matchAll(tagPattern)) {
    walker.text(decodeEntities(html.slice(last, match.index)));
    last = match.index + match[0].length;
    const name = (match[2] ?? '').toLowerCase();
    if (match[1] === '/') walker.close(name);
    else {
      walker.open(name);
      if (match[3] === '/' || voidTags.has(name)) walker.close(name);
    }
  }
  walker.text(decodeEntities(html.slice(last)));
  walker.flush();
  return walker.blocks;
}

const voidTags = new Set(['br', 'img', 'hr']);
const textBlockTags = new Set(['p', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const separatingTags = new Set([...textBlockTags, 'ul', 'ol', 'table', 'tr', 'td', 'th', 'br', 'hr']);

class BlockWalker {
  readonly blocks: ExtractedBlock[] = [];
  private pending = '';
  private headingLevel: number | undefined;
  /** Depth of nested tables; only the outermost one has rows, inner ones become cell text. */
  private tableDepth = 0;
  private rows: string[][] = [];
  private row: string[] | undefined;
  private cell: string | undefined;

  constructor(private readonly tables: boolean) {}

  text(value: string): void {
    if (this.cell !== undefined) this.cell += value;
    else this.pending += value;
  }

  open(name: string): void {
    if (this.tableDepth > 0) return this.openInTable(name);
    if (separatingTags.has(name)) this.flush();
    const level = headingLevel(name);
    if (level !== undefined) this.headingLevel = level;
    if (name === 'table') {
      this.tableDepth = 1;
      this.rows = [];
    }
  }

  close(name: string): void {
    if (this.tableDepth > 0) return this.closeInTable(name);
    if (separatingTags.has(name)) this.flush();
  }

  /** Emits the text gathered so far as a heading or a paragraph. */
  flush(): void {
    const text = normalizeSpace(this.pending);
    if (text !== '') {
      this.blocks.push(
        this.headingLevel === undefined
          ? { kind: 'paragraph', text }
          : { kind: 'heading', text, level: this.headingLevel },
      );
    }
    this.pending = '';
    this.headingLevel = undefined;
  }

  private openInTable(name: string): void {
    if (name === 'table') this.tableDepth += 1;
    if (this.tableDepth > 1) return this.text(' ');
    if (name === 'tr') this.row = [];
    else if (name === 'td' || name === 'th') this.cell = '';
    else if (separatingTags.has(name)) this.text(' ');
  }

  private closeInTable(name: string): void {
    if (name === 'table') this.tableDepth -= 1;
    if (this.tableDepth === 0) return this.emitTable();
    if (this.tableDepth > 1 || name === 'table') return this.text(' ');
    if ((name === 'td' || name === 'th') && this.cell !== undefined) {
      this.row?.push(normalizeSpace(this.cell));
      this.cell = undefined;
    } else if (name === 'tr' && this.row) {
      if (this.row.some((cell) => cell !== '')) this.rows.push(this.row);
      this.row = undefined;
    } else if (separatingTags.has(name)) this.text(' ');
  }

  private emitTable(): void {
    const [headers, ...body] = this.rows;
    this.rows = [];
    if (!headers) return;
    if (!this.tables || body.length === 0) {
      for (const row of [headers, ...body]) this.blocks.push({ kind: 'paragraph', text: joinCells(row) });
      return;
    }
    for (const row of body) {
      const text = formatTableRow(headers, row);
      if (text !== '') this.blocks.push({ kind: 'table_row', text });
    }
  }
}

function headingLevel(tag: string): number | undefined {
  const match = /^h([1-6])$/.exec(tag);
  return match ? Number(match[1]) : undefined;
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const namedEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (entity, body: string) => {
    if (!body.startsWith('#')) return namedEntities[body] ?? entity;
    const codePoint = body.startsWith('#x') ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
  });
}
