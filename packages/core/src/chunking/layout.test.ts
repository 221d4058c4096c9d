import { expect } from 'chai';
import type { ExtractedBlock, ExtractedDocument } from '@docqa/plugin-api';
import { chunkDocument } from './chunk-document.js';
import { documentText } from './document-text.js';
import { documentLayout } from './layout.js';

const doc = (...blocks: ExtractedBlock[]): ExtractedDocument => ({ blocks, metadata: {} });
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const options = { targetTokens: 8, minChunkLength: 0, countTokens: words };

describe('documentLayout', () => {
  it('maps the sections of documentText as chunking sees them, with their pages', () => {
    const document = doc(
      { kind: 'paragraph', text: 'Cover note.', page: 1 },
      { kind: 'heading', text: 'Guide', level: 1 },
      { kind: 'heading', text: 'Install', level: 2 },
      { kind: 'paragraph', text: 'Run it.' },
      { kind: 'page_break', text: '' },
      { kind: 'paragraph', text: 'Then check it.' },
      { kind: 'heading', text: 'Use', level: 2 },
      { kind: 'paragraph', text: 'Open it.' },
    );
    const text = documentText(document);
    const { sections, pages } = documentLayout(document);
    // "Guide" opens straight into "Install": one section, as the chunker keeps them.
    expect(
      sections.map((section) => [section.heading_path, text.slice(section.char_start, section.char_end)]),
    ).to.deep.equal([
      [[], 'Cover note.'],
      [['Guide', 'Install'], 'Guide\n\nInstall\n\nRun it.\n\nThen check it.'],
      [['Guide', 'Use'], 'Use\n\nOpen it.'],
    ]);
    expect(sections.map((section) => [section.page_start, section.page_end])).to.deep.equal([
      [1, 1],
      [1, 2],
      [2, 2],
    ]);
    expect(pages.map((page) => [page.page, text.slice(page.char_start, page.char_end)])).to.deep.equal([
      [1, 'Cover note.\n\nGuide\n\nInstall\n\nRun it.'],
      [2, 'Then check it.\n\nUse\n\nOpen it.'],
    ]);
    // Every chunk lies inside the section of its heading path.
    for (const chunk of chunkDocument(document, options)) {
      const section = sections.find((candidate) => candidate.heading_path.join('/') === chunk.headingPath.join('/'));
      expect(section, chunk.text).to.not.equal(undefined);
      expect(chunk.start).to.be.at.least(section!.char_start);
      expect(chunk.end).to.be.at.most(section!.char_end);
    }
  });

  it('has no pages for a format without them', () => {
    const layout = documentLayout(doc({ kind: 'heading', text: 'A', level: 1 }, { kind: 'paragraph', text: 'b' }));
    expect(layout.pages).to.deep.equal([]);
    expect(layout.sections).to.deep.equal([
      { heading_path: ['A'], char_start: 0, char_end: 4, page_start: null, page_end: null },
    ]);
  });
});

describe('chunk rows', () => {
  it('a chunk keeps the first and last spreadsheet rows of its blocks; other chunks have none', () => {
    const row = (n: number): ExtractedBlock => ({ kind: 'table_row', text: `Name: person ${n}; Age: ${n}`, row: n });
    const document = doc(
      { kind: 'heading', text: 'People', level: 1 },
      row(2),
      row(4),
      row(5),
      row(7),
      { kind: 'heading', text: 'Notes', level: 1 },
      { kind: 'paragraph', text: 'No rows here.' },
    );
    // Two rows (five words each) fit in a chunk of twelve tokens, the heading too.
    const chunks = chunkDocument(document, { ...options, targetTokens: 12 });
    expect(chunks.map((chunk) => [chunk.headingPath, chunk.rowStart, chunk.rowEnd])).to.deep.equal([
      [['People'], 2, 4],
      [['People'], 5, 7],
      [['Notes'], undefined, undefined],
    ]);
  });
});
