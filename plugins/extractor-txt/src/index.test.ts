import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { providerTokens, type ExtractedDocument } from '@docqa/plugin-api';
import { describeExtractorConformance, startTestKernel } from '@docqa/plugin-testkit';
import txtExtractorPlugin, { txtExtractorProvider } from './index.js';
import { maxParagraphChars } from './plain-text-blocks.js';

const utf8Bom = Buffer.from([0xef, 0xbb, 0xbf]);
const utf16LeBom = Buffer.from([0xff, 0xfe]);

function utf16Be(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf16le');
  bytes.swap16();
  return Buffer.concat([Buffer.from([0xfe, 0xff]), bytes]);
}

describeExtractorConformance('extractor-txt', {
  provider: txtExtractorProvider,
  async samples(dir) {
    const plain = join(dir, 'notes.txt');
    await writeFile(
      plain,
      'First paragraph,\nstill the first.\n\nSecond: Zoë, 東京, ünïcødé.\r\n\r\nPage two\fafter the break\n',
    );
    const withBom = join(dir, 'bom.log');
    await writeFile(withBom, Buffer.concat([utf8Bom, Buffer.from('A log line\nanother line\n')]));
    const utf16 = join(dir, 'wide.text');
    await writeFile(utf16, Buffer.concat([utf16LeBom, Buffer.from('UTF-16 text: Zoë 東京\n\nmore', 'utf16le')]));
    return [
      {
        path: plain,
        filename: 'notes.txt',
        mediaType: 'text/plain',
        expect: ['First paragraph,', 'still the first.', 'Zoë, 東京, ünïcødé', 'Page two', 'after the break'],
      },
      { path: withBom, filename: 'bom.log', mediaType: 'text/plain', expect: ['A log line', 'another line'] },
      { path: utf16, filename: 'wide.text', mediaType: 'text/plain', expect: ['UTF-16 text: Zoë 東京', 'more'] },
    ];
  },
  async corrupt(dir) {
    const path = join(dir, 'not-really.txt');
    await writeFile(path, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xc3, 0x28, 0xff]));
    return { path, filename: 'not-really.txt', mediaType: 'text/plain' };
  },
});

describe('extractor-txt', function () {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'extractor-txt-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function extractFile(filename: string, content: string | Buffer): Promise<ExtractedDocument> {
    const path = join(dir, filename);
    await writeFile(path, content);
    const options = { ocr: false, ocrLanguages: [], tables: false };
    return txtExtractorProvider.extract(
      { path, filename, mediaType: 'text/plain', options },
      new AbortController().signal,
    );
  }

  async function extractionError(filename: string, content: string | Buffer): Promise<unknown> {
    return extractFile(filename, content).then(
      () => null,
      (error: unknown) => error,
    );
  }

  it('splits paragraphs on blank lines, including lines of only spaces, and keeps line breaks inside one', async () => {
    const document = await extractFile('a.txt', 'one\ntwo  \n   \n\n\tthree\r\nfour\rfive\n\n');
    expect(document.blocks).to.deep.equal([
      { kind: 'paragraph', text: 'one\ntwo', page: 1 },
      { kind: 'paragraph', text: 'three\nfour\nfive', page: 1 },
    ]);
  });

  it('turns form feeds into page breaks and numbers the pages, without an empty page after a final form feed', async () => {
    const document = await extractFile('pages.txt', 'page one\fpage two\n\f\npage three\f');
    expect(document.blocks).to.deep.equal([
      { kind: 'paragraph', text: 'page one', page: 1 },
      { kind: 'page_break', text: '', page: 1 },
      { kind: 'paragraph', text: 'page two', page: 2 },
      { kind: 'page_break', text: '', page: 2 },
      { kind: 'paragraph', text: 'page three', page: 3 },
    ]);
  });

  it('strips a UTF-8 byte-order mark and decodes UTF-16 big-endian with one', async () => {
    expect((await extractFile('bom.txt', Buffer.concat([utf8Bom, Buffer.from('héllo')]))).blocks[0]?.text).to.equal(
      'héllo',
    );
    expect(
      (await extractFile('be.txt', utf16Be('big ünïcødé\n\nend'))).blocks.map((block) => block.text),
    ).to.deep.equal(['big ünïcødé', 'end']);
  });

  it('keeps a multi-byte character split across read chunks', async () => {
    // 64 KiB is the read stream's chunk size; put a 3-byte character across the boundary.
    const text = `${'a'.repeat(64 * 1024 - 1)}東京`;
    const document = await extractFile('split.txt', text);
    expect(document.blocks.map((block) => block.text).join('')).to.equal(text);
  });

  it('refuses invalid UTF-8 as not text, naming the file', async () => {
    const error = await extractionError('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(error).to.have.property('code', 'unsupported_media_type');
    expect((error as Error).message)
      .to.include("'latin1.txt' is not text")
      .and.include('UTF-8');
  });

  it('refuses a file with NUL bytes as binary', async () => {
    const error = await extractionError('image.txt', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x00, 0x0d]));
    expect(error).to.have.property('code', 'unsupported_media_type');
    expect((error as Error).message).to.include('NUL');
  });

  it('cuts a paragraph that has no blank line at a line end once it grows past the limit', async () => {
    const line = 'x'.repeat(1000);
    const lines = Math.ceil((maxParagraphChars * 2.5) / 1001);
    const document = await extractFile('big.log', `${line}\n`.repeat(lines));
    expect(document.blocks.length).to.equal(3);
    for (const block of document.blocks) expect(block.text.length).to.be.at.most(maxParagraphChars);
    expect(document.blocks.map((block) => block.text.split('\n').length).reduce((a, b) => a + b)).to.equal(lines);
  });

  it('gives an empty file no blocks', async () => {
    expect(await extractFile('empty.txt', '')).to.deep.equal({ blocks: [], metadata: {} });
  });

  it('loads in a kernel as an extractor and refuses options it does not have', async function () {
    this.timeout(120_000);
    const kernel = await startTestKernel({ plugins: [{ plugin: txtExtractorPlugin }] });
    try {
      expect(kernel.resolveAll(providerTokens.extractor)).to.include(txtExtractorProvider);
    } finally {
      await kernel.dispose();
    }
    const error = await startTestKernel({
      plugins: [{ plugin: txtExtractorPlugin, options: { encoding: 'latin1' } }],
    }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.have.property('code', 'plugin_invalid');
    expect((error as Error).message)
      .to.include("plugin instance 'extractor-txt'")
      .and.include('encoding');
  });
});
