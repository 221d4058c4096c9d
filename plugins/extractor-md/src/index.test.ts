import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { providerTokens, type ExtractedDocument } from '@docqa/plugin-api';
import { describeExtractorConformance, startTestKernel } from '@docqa/plugin-testkit';
import mdExtractorPlugin, { mdExtractorProvider } from './index.js';

const guide = `---
title: "The DocQA Guide"
author: Zoë Müller
tags:
  - nested, skipped
---

Install guide
=============

Intro with **bold**, *italics*, \`code\` and a [link](https://example.com).

## Tokyo 東京 office

Ünïcødé text survives.

\`\`\`sh
# not a heading, a shell comment
npm install
\`\`\`

| Name | City |
| ---- | :--: |
| Zoë  | 東京 |
`;

describeExtractorConformance('extractor-md', {
  provider: mdExtractorProvider,
  async samples(dir) {
    const path = join(dir, 'guide.md');
    await writeFile(path, guide);
    const plain = join(dir, 'plain.markdown');
    await writeFile(plain, '# Only a heading\n\nand text\n');
    return [
      {
        path,
        filename: 'guide.md',
        mediaType: 'text/markdown',
        expect: [
          'Install guide',
          'Intro with bold, italics, code and a link.',
          'Tokyo 東京 office',
          'Ünïcødé',
          '# not a heading',
          'npm install',
          'Name: Zoë; City: 東京',
        ],
        headings: ['Install guide', 'Tokyo 東京 office'],
      },
      {
        path: plain,
        filename: 'plain.markdown',
        mediaType: 'text/markdown',
        expect: ['Only a heading', 'and text'],
        headings: ['Only a heading'],
      },
    ];
  },
  async corrupt(dir) {
    const path = join(dir, 'broken.md');
    await writeFile(path, Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x00, 0x00, 0x12]));
    return { path, filename: 'broken.md', mediaType: 'text/markdown' };
  },
});

describe('extractor-md', function () {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'extractor-md-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function extractMarkdown(markdown: string, tables = true): Promise<ExtractedDocument> {
    const path = join(dir, 'doc.md');
    await writeFile(path, markdown);
    const options = { ocr: false, ocrLanguages: [], tables };
    return mdExtractorProvider.extract(
      { path, filename: 'doc.md', mediaType: 'text/markdown', options },
      new AbortController().signal,
    );
  }

  it('reads ATX headings of every level, with closing hashes, and ignores # without a space', async () => {
    const document = await extractMarkdown(
      '# One\n## Two ##\n###### Six\n####### seven is text\n#hashtag\n   ### Indented three\n    # four spaces is code\n',
    );
    expect(document.blocks).to.deep.equal([
      { kind: 'heading', text: 'One', level: 1 },
      { kind: 'heading', text: 'Two', level: 2 },
      { kind: 'heading', text: 'Six', level: 6 },
      { kind: 'paragraph', text: '####### seven is text #hashtag' },
      { kind: 'heading', text: 'Indented three', level: 3 },
      { kind: 'paragraph', text: '# four spaces is code' },
    ]);
  });

  it('reads setext headings, and a --- after a blank line as a thematic break', async () => {
    const document = await extractMarkdown('Big title\n===\n\nSmaller\ntitle\n---\n\ntext\n\n---\n\nmore\n');
    expect(document.blocks).to.deep.equal([
      { kind: 'heading', text: 'Big title', level: 1 },
      { kind: 'heading', text: 'Smaller title', level: 2 },
      { kind: 'paragraph', text: 'text' },
      { kind: 'paragraph', text: 'more' },
    ]);
  });

  it('keeps fenced code verbatim as one paragraph, and headings inside a fence are not headings', async () => {
    const document = await extractMarkdown(
      '~~~~python\n# comment\n\n    indented = True\n```\nstill code\n~~~~\n# After\n',
    );
    expect(document.blocks).to.deep.equal([
      { kind: 'paragraph', text: '# comment\n\n    indented = True\n```\nstill code' },
      { kind: 'heading', text: 'After', level: 1 },
    ]);
  });

  it('runs an unterminated fence to the end of the file', async () => {
    const document = await extractMarkdown('```\n# inside\n');
    expect(document.blocks).to.deep.equal([{ kind: 'paragraph', text: '# inside' }]);
  });

  it('keeps a list with its continuation lines as one paragraph, one per list separated by blank lines', async () => {
    const document = await extractMarkdown('* apples\n+ **pears**\n  ripe ones\n1. first\n\n- other list\n');
    expect(document.blocks).to.deep.equal([
      { kind: 'paragraph', text: '- apples\n- pears\nripe ones\n1. first' },
      { kind: 'paragraph', text: '- other list' },
    ]);
  });

  it('turns pipe tables into table rows when tables are on, and into one paragraph otherwise', async () => {
    const table =
      'Before\n\n| Name | Role | Note |\n|------|:----:|------|\n| Ada | lead | |\n| Bob \\| Jr | dev | `x` |\nafter\n';
    expect((await extractMarkdown(table)).blocks).to.deep.equal([
      { kind: 'paragraph', text: 'Before' },
      { kind: 'table_row', text: 'Name: Ada; Role: lead' },
      { kind: 'table_row', text: 'Name: Bob | Jr; Role: dev; Note: x' },
      { kind: 'paragraph', text: 'after' },
    ]);
    expect((await extractMarkdown(table, false)).blocks).to.deep.equal([
      { kind: 'paragraph', text: 'Before' },
      { kind: 'paragraph', text: 'Name | Role | Note\nAda | lead\nBob | Jr | dev | x' },
      { kind: 'paragraph', text: 'after' },
    ]);
  });

  it('moves simple front matter to metadata, not text, and takes the title from it', async () => {
    const document = await extractMarkdown(
      "---\ntitle: 'Front title'\ndate: 2024-05-01\nempty:\nlist: [a, b]\n---\n# Heading title\n",
    );
    expect(document).to.deep.equal({
      title: 'Front title',
      blocks: [{ kind: 'heading', text: 'Heading title', level: 1 }],
      metadata: { title: 'Front title', date: '2024-05-01' },
    });
  });

  it('takes the title from the first level-1 heading when there is no front matter title', async () => {
    const document = await extractMarkdown('## Section\n# Real title\n# Second top heading\n');
    expect(document.title).to.equal('Real title');
    expect(document.metadata).to.deep.equal({});
  });

  it('reads an unclosed opening --- as a thematic break, not as front matter', async () => {
    const document = await extractMarkdown('---\ntitle: not metadata\n');
    expect(document).to.deep.equal({ blocks: [{ kind: 'paragraph', text: 'title: not metadata' }], metadata: {} });
  });

  it('reduces inline markup to its text, leaving escaped characters and snake_case alone', async () => {
    const document = await extractMarkdown(
      '![logo](a.png) see <https://x.example> and [docs][ref], ~~old~~ __new__, \\*not italic\\*, my_snake_case_name, 2 * 3 * 4\n> quoted line\n',
    );
    expect(document.blocks).to.deep.equal([
      {
        kind: 'paragraph',
        text: 'logo see https://x.example and docs, old new, *not italic*, my_snake_case_name, 2 * 3 * 4 quoted line',
      },
    ]);
  });

  it('loads in a kernel as an extractor and refuses options it does not have', async function () {
    this.timeout(120_000);
    const kernel = await startTestKernel({ plugins: [{ plugin: mdExtractorPlugin }] });
    try {
      expect(kernel.resolveAll(providerTokens.extractor)).to.include(mdExtractorProvider);
    } finally {
      await kernel.dispose();
    }
    const error = await startTestKernel({ plugins: [{ plugin: mdExtractorPlugin, options: { flavour: 'gfm' } }] }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.have.property('code', 'plugin_invalid');
    expect((error as Error).message)
      .to.include("plugin instance 'extractor-md'")
      .and.include('flavour');
  });
});
