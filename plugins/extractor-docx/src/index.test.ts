import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { DocqaError, splitWorkerModule } from '@docqa/plugin-api';
import type { ExtractedDocument, ExtractorInput, ExtractorProvider } from '@docqa/plugin-api';
import { describeExtractorConformance } from '@docqa/plugin-testkit';
import docxExtractorPlugin, { createDocxExtractorProvider, docxExtractorOptionsSchema } from './index.js';
import { docxMediaType } from './index.js';
import { inflatedDocx, lyingSizes, manyEntriesDocx } from './zip-bomb.test-support.js';

describeExtractorConformance('extractor-docx', {
  provider: createDocxExtractorProvider(),
  async samples(dir) {
    const path = join(dir, 'handbook.docx');
    await writeFile(path, await Packer.toBuffer(handbook()));
    const unicodePath = join(dir, 'café-notes.docx');
    const unicode = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Zoë in 東京', heading: HeadingLevel.HEADING_1 }),
            new Paragraph('ünïcødé text — with “quotes”.'),
          ],
        },
      ],
    });
    await writeFile(unicodePath, await Packer.toBuffer(unicode));
    return [
      {
        path,
        filename: 'handbook.docx',
        mediaType: docxMediaType,
        expect: ['Employee handbook', 'Welcome & read <this> first', 'Leave', 'Kind: Annual; Days: 25', 'The end.'],
        headings: ['Employee handbook', 'Leave', 'Public holidays'],
      },
      {
        path: unicodePath,
        filename: 'café-notes.docx',
        mediaType: docxMediaType,
        expect: ['Zoë in 東京', 'ünïcødé text — with “quotes”.'],
        headings: ['Zoë in 東京'],
      },
    ];
  },
  async corrupt(dir) {
    const path = join(dir, 'corrupt.docx');
    await writeFile(path, Buffer.from('PK\x03\x04 a zip header and nothing after it', 'latin1'));
    return { path, filename: 'corrupt.docx', mediaType: docxMediaType };
  },
});

/** The worker module as the extraction worker calls it: with the plugin's options as third argument. */
type WorkerModule = {
  extract(input: ExtractorInput, signal?: AbortSignal, options?: unknown): Promise<ExtractedDocument>;
};

function tableRow(cells: string[]): TableRow {
  return new TableRow({ children: cells.map((text) => new TableCell({ children: [new Paragraph(text)] })) });
}

/** A handbook with every block the extractor knows: headings of three levels, a list and a table. */
function handbook(): Document {
  return new Document({
    title: 'Handbook',
    sections: [
      {
        children: [
          new Paragraph({ text: 'Employee handbook', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [new TextRun('Welcome & '), new TextRun({ text: 'read <this> first', bold: true })],
          }),
          new Paragraph({ text: 'Leave', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'Ask your manager first', bullet: { level: 0 } }),
          new Paragraph({ text: 'Public holidays', heading: HeadingLevel.HEADING_5 }),
          new Table({ rows: [tableRow(['Kind', 'Days']), tableRow(['Annual', '25']), tableRow(['Sick', ''])] }),
          new Paragraph('The end.'),
        ],
      },
    ],
  });
}

describe('extractor-docx', function () {
  let dir: string;
  let provider: ExtractorProvider;
  const signal = new AbortController().signal;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docqa-docx-'));
    provider = (await docxExtractorPlugin.init({
      options: {},
      instanceId: 'extractor-docx',
      deps: {},
    } as never)) as ExtractorProvider;
  });
  after(() => rm(dir, { recursive: true, force: true }));

  async function write(filename: string, bytes: Buffer | Uint8Array): Promise<string> {
    const path = join(dir, filename);
    await writeFile(path, bytes);
    return path;
  }

  function input(path: string, filename: string, tables = true): ExtractorInput {
    return { path, filename, mediaType: docxMediaType, options: { ocr: false, ocrLanguages: [], tables } };
  }

  async function failure(promise: Promise<ExtractedDocument>): Promise<DocqaError> {
    const error = await promise.then(
      () => null,
      (failed: unknown) => failed,
    );
    expect(DocqaError.is(error, 'unsupported_media_type'), String(error)).to.equal(true);
    return error as DocqaError;
  }

  it('declares the .docx media type and no OCR', () => {
    expect(provider.mediaTypes).to.deep.equal([docxMediaType]);
    expect(provider.extensions).to.deep.equal(['.docx']);
    expect(provider.capabilities).to.deep.equal({ tables: true, ocr: false });
    expect(provider.requiredPlan).to.equal(undefined);
  });

  it('keeps headings with their levels, paragraphs, list items and table rows in order', async () => {
    const path = await write('handbook.docx', await Packer.toBuffer(handbook()));
    const document = await provider.extract(input(path, 'handbook.docx'), signal);
    expect(document.blocks).to.deep.equal([
      { kind: 'heading', text: 'Employee handbook', level: 1 },
      { kind: 'paragraph', text: 'Welcome & read <this> first' },
      { kind: 'heading', text: 'Leave', level: 2 },
      { kind: 'paragraph', text: 'Ask your manager first' },
      { kind: 'heading', text: 'Public holidays', level: 5 },
      { kind: 'table_row', text: 'Kind: Annual; Days: 25' },
      { kind: 'table_row', text: 'Kind: Sick' },
      { kind: 'paragraph', text: 'The end.' },
    ]);
    expect(document.title).to.equal('Employee handbook');
  });

  it('writes one paragraph per table row when tables are off', async () => {
    const path = await write('handbook-no-tables.docx', await Packer.toBuffer(handbook()));
    const document = await provider.extract(input(path, 'handbook-no-tables.docx', false), signal);
    const rows = document.blocks.filter((block) => ['Kind | Days', 'Annual | 25', 'Sick'].includes(block.text));
    expect(rows.map((block) => block.kind)).to.deep.equal(['paragraph', 'paragraph', 'paragraph']);
    expect(document.blocks.some((block) => block.kind === 'table_row')).to.equal(false);
  });

  it('gives no title to a document without headings', async () => {
    const plain = new Document({ sections: [{ children: [new Paragraph('Just a note.')] }] });
    const path = await write('note.docx', await Packer.toBuffer(plain));
    const document = await provider.extract(input(path, 'note.docx'), signal);
    expect(document).to.deep.equal({ blocks: [{ kind: 'paragraph', text: 'Just a note.' }], metadata: {} });
  });

  it('refuses a file that is not a zip, naming it', async () => {
    const path = await write('broken.docx', Buffer.from('this is not a Word document'));
    const error = await failure(provider.extract(input(path, 'broken.docx'), signal));
    expect(error.message).to.match(/^broken\.docx is not a readable Word document: /);
  });

  it('refuses a zip that is not a Word document', async () => {
    const notWord = new Uint8Array(await Packer.toBuffer(handbook()));
    // Truncate the archive so that its central directory is gone.
    const path = await write('truncated.docx', notWord.subarray(0, 200));
    const error = await failure(provider.extract(input(path, 'truncated.docx'), signal));
    expect(error.message).to.match(/^truncated\.docx is not a readable Word document: /);
  });

  it('refuses a password-protected document, saying it is encrypted', async () => {
    const path = await write('secret.docx', encryptedPackageStandIn());
    const error = await failure(provider.extract(input(path, 'secret.docx'), signal));
    expect(error.message).to.include('secret.docx is encrypted');
  });

  it('tells an old binary .doc renamed to .docx apart from an encrypted one', async () => {
    const path = await write('old.docx', compoundFile(['WordDocument']));
    const error = await failure(provider.extract(input(path, 'old.docx'), signal));
    expect(error.message).to.include('old.docx is not a readable Word document').and.include('.doc');
  });

  it('runs the same extraction from its worker module', async () => {
    const path = await write('worker.docx', await Packer.toBuffer(handbook()));
    const worker = (await import(provider.workerModule)) as {
      extract(input: ExtractorInput): Promise<ExtractedDocument>;
    };
    const fromWorker = await worker.extract(input(path, 'worker.docx'));
    expect(fromWorker).to.deep.equal(await provider.extract(input(path, 'worker.docx'), signal));
  });

  describe('zip bomb limits', () => {
    async function refusal(extraction: Promise<ExtractedDocument>): Promise<DocqaError> {
      const error = await extraction.then(
        () => null,
        (failed: unknown) => failed,
      );
      expect(DocqaError.is(error, 'file_too_large'), String(error)).to.equal(true);
      return error as DocqaError;
    }

    it('refuses a document whose XML inflates past maxUncompressedBytes before mammoth reads it', async () => {
      // 1.6 million paragraphs: 70 MB of XML from about 0.2 MB of archive.
      const path = await write('bomb.docx', inflatedDocx(await Packer.toBuffer(handbook()), 1_600_000));
      const error = await refusal(provider.extract(input(path, 'bomb.docx'), signal));
      expect(error.message).to.equal(
        `bomb.docx inflates to more than ${64 * 1024 * 1024} bytes; it looks like a zip bomb and was not read. ` +
          'The limit is the maxUncompressedBytes option of extractor-docx (docs/security.md).',
      );
    });

    it('refuses an entry compressed more than maxCompressionRatio to 1', async () => {
      const path = await write('ratio.docx', inflatedDocx(await Packer.toBuffer(handbook()), 100_000));
      const error = await refusal(provider.extract(input(path, 'ratio.docx'), signal));
      expect(error.message).to.match(/^ratio\.docx has an entry \(word\/document\.xml\) compressed \d+ to 1, /);
      expect(error.message).to.include('more than 100 to 1;');
      expect(error.message).to.include('maxCompressionRatio option of extractor-docx');
    });

    it('refuses more entries than maxEntries', async () => {
      const path = await write('entries.docx', manyEntriesDocx(await Packer.toBuffer(handbook()), 10_001));
      const error = await refusal(provider.extract(input(path, 'entries.docx'), signal));
      expect(error.message).to.match(/^entries\.docx has 100\d\d entries, more than 10000;/);
    });

    it('refuses an entry that inflates to more than its archive declares', async () => {
      const varied = 'Varied text keeps the ratio low: 0123456789 abcdefghij.';
      const bomb = inflatedDocx(await Packer.toBuffer(handbook()), 20_000, varied);
      const path = await write('liar.docx', lyingSizes(bomb, 1000));
      const error = await refusal(provider.extract(input(path, 'liar.docx'), signal));
      const declared = 'has an entry (word/document.xml) that inflates to more than the size it declares';
      expect(error.message).to.include(declared);
    });

    it('stops at maxTextCharacters, also in the worker module, which gets the options through its URL', async () => {
      const limited = createDocxExtractorProvider(docxExtractorOptionsSchema.parse({ maxTextCharacters: 10_000 }));
      const path = await write('long.docx', inflatedDocx(await Packer.toBuffer(handbook()), 1000));
      const error = await refusal(limited.extract(input(path, 'long.docx'), signal));
      expect(error.message).to.equal(
        'long.docx has more than 10000 characters of text; it was not indexed. ' +
          'The limit is the maxTextCharacters option of extractor-docx (docs/security.md).',
      );
      const { moduleUrl, options } = splitWorkerModule(limited.workerModule);
      const worker = (await import(moduleUrl)) as WorkerModule;
      await refusal(worker.extract(input(path, 'long.docx'), undefined, options));
      expect((await worker.extract(input(path, 'long.docx'))).blocks.length, 'default limits').to.be.above(1000);
    });

    it('validates its limits', () => {
      expect(docxExtractorOptionsSchema.safeParse({ maxCompressionRatio: 1 }).success).to.equal(false);
      expect(docxExtractorOptionsSchema.safeParse({ maxEntries: 'many' }).success).to.equal(false);
      expect(docxExtractorOptionsSchema.parse({})).to.deep.equal({
        maxEntries: 10_000,
        maxUncompressedBytes: 64 * 1024 * 1024,
        maxCompressionRatio: 100,
        maxTextCharacters: 20_000_000,
      });
    });
  });

  it('stops when the signal is aborted', async () => {
    const path = await write('aborted.docx', await Packer.toBuffer(handbook()));
    const controller = new AbortController();
    controller.abort(new Error('shutting down'));
    const error = await provider.extract(input(path, 'aborted.docx'), controller.signal).then(
      () => null,
      (failed: unknown) => failed,
    );
    expect(error).to.have.property('message', 'shutting down');
  });
});

/**
 * The start of an OLE compound file with the given stream names in its directory. Word saves a
 * password-protected .docx as such a file with `EncryptionInfo` and `EncryptedPackage` streams; the
 * extractor looks only at the signature and the names, so this stand-in is enough to test it.
 */
function compoundFile(streamNames: string[]): Buffer {
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  const directory = Buffer.alloc(512);
  ['Root Entry', ...streamNames].slice(0, 4).forEach((name, index) => {
    directory.write(name, index * 128, 'utf16le');
  });
  return Buffer.concat([header, directory]);
}

function encryptedPackageStandIn(): Buffer {
  return compoundFile(['EncryptionInfo', 'EncryptedPackage']);
}
