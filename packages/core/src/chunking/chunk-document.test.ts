import { expect } from 'chai';
import type { ExtractedBlock, ExtractedDocument } from '@docqa/plugin-api';
import { chunkDocument, type ChunkingOptions } from './chunk-document.js';
import { documentText } from './document-text.js';
import { estimateTokens } from './text-spans.js';

const doc = (...blocks: ExtractedBlock[]): ExtractedDocument => ({ blocks, metadata: {} });
const h = (text: string, level = 1): ExtractedBlock => ({ kind: 'heading', text, level });
const p = (text: string): ExtractedBlock => ({ kind: 'paragraph', text });
const row = (text: string): ExtractedBlock => ({ kind: 'table_row', text });
const pageBreak = (page?: number): ExtractedBlock =>
  page === undefined ? { kind: 'page_break', text: '' } : { kind: 'page_break', text: '', page };
// One token per word keeps the arithmetic of these tests readable.
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const sentence = (n: number, word = 'word') => `${Array.from({ length: n }, () => word).join(' ')}.`;
const base: ChunkingOptions = { targetTokens: 20, minChunkLength: 0, countTokens: words };

describe('documentText', () => {
  it('joins text blocks with a blank line, headings included, page breaks left out', () => {
    expect(documentText(doc(h('Title'), p('One.'), pageBreak(), row('a | b')))).to.equal('Title\n\nOne.\n\na | b');
  });
});

describe('chunkDocument', () => {
  it('gives offsets into documentText so text equals the slice', () => {
    const document = doc(h('A'), p(sentence(15)), p(sentence(15)), h('B'), p(sentence(5)));
    const text = documentText(document);
    for (const chunk of chunkDocument(document, base)) expect(chunk.text).to.equal(text.slice(chunk.start, chunk.end));
  });

  it('never mixes two sections and prefixes each section with its heading', () => {
    const chunks = chunkDocument(
      doc(p('Preamble text.'), h('Intro'), p('Short intro.'), h('Details', 2), p('Some details.')),
      base,
    );
    expect(chunks.map((c) => c.text)).to.deep.equal([
      'Preamble text.',
      'Intro\n\nShort intro.',
      'Details\n\nSome details.',
    ]);
    expect(chunks.map((c) => c.headingPath)).to.deep.equal([[], ['Intro'], ['Intro', 'Details']]);
    expect(chunks.map((c) => c.index)).to.deep.equal([0, 1, 2]);
  });

  it('keeps a heading followed directly by its sub-heading as part of the child prefix', () => {
    const chunks = chunkDocument(doc(h('Part I'), h('Chapter 1', 2), p('Text.'), h('Part II'), p('More.')), base);
    expect(chunks.map((c) => c.text)).to.deep.equal(['Part I\n\nChapter 1\n\nText.', 'Part II\n\nMore.']);
    expect(chunks[0]?.headingPath).to.deep.equal(['Part I', 'Chapter 1']);
  });

  it('packs paragraphs up to the target', () => {
    const chunks = chunkDocument(doc(p(sentence(8)), p(sentence(8)), p(sentence(8)), p(sentence(8))), base);
    expect(chunks.map((c) => words(c.text))).to.deep.equal([16, 16]);
  });

  it('keeps a paragraph between target and max whole, and splits a longer one at sentences then words', () => {
    const whole = chunkDocument(doc(p(sentence(30))), base);
    expect(whole).to.have.length(1);
    const long = `${sentence(15, 'alpha')} ${sentence(15, 'beta')} ${sentence(15, 'gamma')}`;
    const bySentence = chunkDocument(doc(p(long)), base);
    expect(bySentence.map((c) => c.text)).to.deep.equal([
      sentence(15, 'alpha'),
      sentence(15, 'beta'),
      sentence(15, 'gamma'),
    ]);
    const byWord = chunkDocument(doc(p(sentence(50))), base);
    expect(byWord.map((c) => words(c.text))).to.deep.equal([20, 20, 10]);
    for (const chunk of byWord) expect(words(chunk.text)).to.be.at.most(40);
  });

  it('packs table rows whole into table chunks that repeat nothing', () => {
    const rows = Array.from({ length: 6 }, (_, i) => row(`r${i} a b c d e f`));
    const chunks = chunkDocument(doc(p('Before the table.'), ...rows), base);
    expect(chunks.map((c) => c.kind)).to.deep.equal(['text', 'table', 'table', 'table']);
    expect(chunks[1]?.text).to.equal('r0 a b c d e f\n\nr1 a b c d e f');
    expect(chunks[2]?.text.startsWith('r2')).to.equal(true);
    const joined = chunks
      .slice(1)
      .map((c) => c.text)
      .join('\n\n');
    expect(joined).to.equal(rows.map((r) => r.text).join('\n\n'));
  });

  it('splits a single row only when it alone exceeds the max', () => {
    const chunks = chunkDocument(doc(row(sentence(45))), base);
    expect(chunks.map((c) => words(c.text))).to.deep.equal([20, 20, 5]);
    expect(chunks.every((c) => c.kind === 'table')).to.equal(true);
  });

  it('tracks pages through page breaks and block pages', () => {
    const chunks = chunkDocument(
      doc(p(sentence(16)), pageBreak(), p(sentence(16)), pageBreak(), p(sentence(5)), pageBreak(7), p(sentence(5))),
      base,
    );
    expect(chunks.map((c) => [c.pageStart, c.pageEnd])).to.deep.equal([
      [1, 1],
      [2, 2],
      [3, 7],
    ]);
    const noPages = chunkDocument(doc(p('Plain.')), base);
    expect(noPages[0]).to.not.have.property('pageStart');
  });

  it('merges a short chunk into the previous chunk of its section, and a short section into its neighbour', () => {
    const options = { ...base, minChunkLength: 30 };
    const merged = chunkDocument(doc(p(sentence(18, 'long')), p('Tiny tail.')), options);
    expect(merged).to.have.length(1);
    expect(merged[0]?.text.endsWith('Tiny tail.')).to.equal(true);
    // A titled section under the minimum is never dropped: it joins the chunk before it, heading and all.
    const section = chunkDocument(doc(h('A'), p(sentence(18, 'long')), h('Product'), p('Zorblax-1 / Region: EU')), {
      ...options,
      minChunkLength: 40,
    });
    expect(section.map((c) => c.headingPath)).to.deep.equal([['A']]);
    expect(section[0]?.text.endsWith('Product\n\nZorblax-1 / Region: EU')).to.equal(true);
    // At the start of a document it joins the chunk after it.
    const first = chunkDocument(doc(h('Region'), p('EU.'), h('B'), p(sentence(18, 'long'))), options);
    expect(first).to.have.length(1);
    expect(first[0]?.text.startsWith('Region\n\nEU.')).to.equal(true);
  });

  it('moves a short first chunk of a section into the next one so the heading prefix survives', () => {
    const chunks = chunkDocument(doc(h('Scope'), p('Short.'), p(sentence(19, 'body'))), {
      ...base,
      minChunkLength: 30,
    });
    expect(chunks).to.have.length(1);
    expect(chunks[0]?.text.startsWith('Scope\n\nShort.')).to.equal(true);
  });

  it('yields one chunk for a non-empty document shorter than the minimum, none for an empty one', () => {
    const chunks = chunkDocument(doc(h('Note'), p('Call Bob.')), { ...base, minChunkLength: 50 });
    expect(chunks.map((c) => c.text)).to.deep.equal(['Note\n\nCall Bob.']);
    expect(chunks[0]?.headingPath).to.deep.equal(['Note']);
    expect(chunkDocument(doc(p('  '), pageBreak()), base)).to.deep.equal([]);
  });

  it('starts a chunk at the first sentence or block start at or after each boundary', () => {
    const document = doc(p('Article 1. First rule. Article 2. Second rule.'), p('Article 3. Third.'));
    const text = documentText(document);
    const chunks = chunkDocument(document, {
      ...base,
      boundaries: [text.indexOf('Article 2') - 3, text.indexOf('Article 3')],
    });
    expect(chunks.map((c) => c.text)).to.deep.equal([
      'Article 1. First rule.',
      'Article 2. Second rule.',
      'Article 3. Third.',
    ]);
  });

  it('does not merge a short chunk across a forced boundary, and keeps it as a chunk of its own', () => {
    const document = doc(p(sentence(10, 'long')), p('Art 2. Repealed.'));
    const text = documentText(document);
    const chunks = chunkDocument(document, { ...base, minChunkLength: 20, boundaries: [text.indexOf('Art 2')] });
    expect(chunks.map((c) => c.text)).to.deep.equal([sentence(10, 'long'), 'Art 2. Repealed.']);
  });

  it('repeats trailing sentences of the previous text chunk when asked for overlap', () => {
    const document = doc(p(`${sentence(9, 'a')} ${sentence(4, 'b')}`), p(sentence(15, 'c')));
    const chunks = chunkDocument(document, { ...base, overlapTokens: 5 });
    expect(chunks[1]?.text.startsWith(sentence(4, 'b'))).to.equal(true);
  });

  it('is deterministic and uses the word estimate by default', () => {
    const document = doc(
      h('T'),
      ...Array.from({ length: 40 }, (_, i) => p(`Paragraph ${i} has a handful of words in it.`)),
    );
    const options = { targetTokens: 64, minChunkLength: 50 };
    expect(chunkDocument(document, options)).to.deep.equal(chunkDocument(document, options));
    expect(estimateTokens('one two three four five six seven eight nine ten')).to.equal(13);
  });

  it('refuses options that make no sense', () => {
    expect(() => chunkDocument(doc(p('x')), { targetTokens: 0, minChunkLength: 1 })).to.throw(/targetTokens/);
    expect(() => chunkDocument(doc(p('x')), { targetTokens: 10, maxTokens: 5, minChunkLength: 1 })).to.throw(
      /maxTokens/,
    );
  });
});
