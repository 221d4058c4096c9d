import { load, type CheerioAPI } from 'cheerio';
import type { ExtractedBlock, ExtractedDocument } from '@docqa/plugin-api';
import { collapseWhitespace } from './collapse-whitespace.js';
import { tableRowTexts } from './html-table.js';

type DomNode = Parameters<CheerioAPI['contains']>[0];

/** Page furniture and non-content: their text would drown the page's own words in every chunk. */
const droppedElements = 'script, style, noscript, template, nav, footer, aside, [hidden]';

/** Elements that end the running paragraph before and after them, as a browser starts a new line. */
const blockElements = new Set([
  'address',
  'article',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'form',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'li',
  'main',
  'menu',
  'ol',
  'p',
  'section',
  'summary',
  'ul',
]);

const metadataNames = new Set(['description', 'author', 'keywords']);

/**
 * An HTML page as blocks in document order: h1–h6 become headings, tables become rows (labelled with
 * their headers when `tables` is on), and all other text becomes paragraphs split where block
 * elements start and end. Whitespace is collapsed as a browser renders it, except inside <pre>.
 */
export function htmlToDocument(html: string, options: { tables: boolean }): ExtractedDocument {
  const $ = load(html);
  $(droppedElements).remove();

  const blocks: ExtractedBlock[] = [];
  let running: string[] = [];
  const endParagraph = () => {
    const text = collapseWhitespace(running.join(''));
    running = [];
    if (text) blocks.push({ kind: 'paragraph', text });
  };

  const visit = (node: DomNode): void => {
    if (node.type === 'text') {
      running.push(node.data);
      return;
    }
    if (!('tagName' in node)) return; // comments, processing instructions
    const tag = node.tagName.toLowerCase();
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      endParagraph();
      const text = collapseWhitespace($(node).text());
      if (text) blocks.push({ kind: 'heading', text, level: Number(heading[1]) });
    } else if (tag === 'table') {
      endParagraph();
      const kind = options.tables ? 'table_row' : 'paragraph';
      for (const text of tableRowTexts($, $(node), options.tables)) blocks.push({ kind, text });
    } else if (tag === 'pre') {
      endParagraph();
      // Preformatted text keeps its line breaks and indentation: it is usually code.
      const text = $(node)
        .text()
        .replace(/[ \t]+$/gm, '')
        .replace(/^\n+|\n+$/g, '');
      if (text.trim()) blocks.push({ kind: 'paragraph', text });
    } else if (tag === 'br') {
      running.push(' ');
    } else if (blockElements.has(tag)) {
      endParagraph();
      node.children.forEach(visit);
      endParagraph();
    } else {
      node.children.forEach(visit);
    }
  };
  $('body').toArray().forEach(visit);
  endParagraph();

  const metadata: Record<string, string> = {};
  $('meta[name][content]').each((_, meta) => {
    const name = ($(meta).attr('name') ?? '').toLowerCase();
    const content = collapseWhitespace($(meta).attr('content') ?? '');
    if (metadataNames.has(name) && content && !(name in metadata)) metadata[name] = content;
  });

  const title =
    collapseWhitespace($('title').first().text()) ||
    blocks.find((block) => block.kind === 'heading' && block.level === 1)?.text;
  return { ...(title ? { title } : {}), blocks, metadata };
}
