import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { ExtractedDocument, ExtractorInput, ExtractorProvider } from '@docqa/plugin-api';

/** A file the setup wrote, with what extracting it must yield. */
export interface ExtractorSample {
  path: string;
  filename: string;
  mediaType: string;
  /** Substrings that must appear, in this order, across the blocks' text. */
  expect: string[];
  /** Texts that must come back as heading blocks. */
  headings?: string[];
}

/**
 * What an extractor's test hands the conformance suite. The suite gives each call a fresh temporary
 * directory and removes it afterwards. Samples are extracted with `options.tables` equal to the
 * provider's `capabilities.tables` and OCR off, as the ingestion pipeline would by default.
 */
export interface ExtractorConformanceSetup {
  provider: ExtractorProvider;
  /**
   * Writes sample files of this type into dir; returns their paths with the text
   * each must yield (substrings that must appear, in order).
   */
  samples(dir: string): Promise<ExtractorSample[]>;
  /** Writes a corrupt file of this type. */
  corrupt(dir: string): Promise<{ path: string; filename: string; mediaType: string }>;
}

type WorkerExtract = (input: ExtractorInput) => Promise<ExtractedDocument>;

/** Codes an extractor may answer for a file it cannot read: unreadable type, or broken content. */
const unreadableFileCodes = ['unsupported_media_type', 'validation_failed'];

/**
 * The behaviour every extractor owes the ingestion pipeline: it says truthfully which files it reads,
 * its worker module does the same work as its in-process `extract`, the text comes back complete and
 * in order (non-ASCII included), a broken file is a DocqaError naming the file rather than a crash,
 * and an aborted extraction stops.
 */
export function describeExtractorConformance(name: string, setup: ExtractorConformanceSetup): void {
  describe(`${name}: extractor conformance`, function () {
    const { provider } = setup;
    let dir = '';

    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'docqa-extractor-conformance-'));
    });

    afterEach(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
      dir = '';
    });

    const inputFor = (file: { path: string; filename: string; mediaType: string }): ExtractorInput => ({
      path: file.path,
      filename: file.filename,
      mediaType: file.mediaType,
      options: { ocr: false, ocrLanguages: [], tables: provider.capabilities.tables },
    });

    async function loadWorkerExtract(): Promise<WorkerExtract> {
      const module = (await import(provider.workerModule)) as { extract?: unknown };
      expect(module.extract, `${provider.workerModule} must export a function named extract`).to.be.a('function');
      return module.extract as WorkerExtract;
    }

    async function writeSamples(): Promise<ExtractorSample[]> {
      const samples = await setup.samples(dir);
      expect(samples, 'setup.samples() must write at least one sample').to.not.be.empty;
      return samples;
    }

    it('declares non-empty, lower-case media types and extensions that start with a dot', () => {
      expect(provider.mediaTypes, 'mediaTypes').to.not.be.empty;
      expect(provider.extensions, 'extensions').to.not.be.empty;
      for (const mediaType of provider.mediaTypes) {
        expect(mediaType, `media type ${mediaType}`)
          .to.equal(mediaType.toLowerCase())
          .and.match(/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/);
      }
      for (const extension of provider.extensions) {
        expect(extension, `extension ${extension}`)
          .to.equal(extension.toLowerCase())
          .and.match(/^\.[a-z0-9]+$/);
      }
      expect(provider.capabilities.tables, 'capabilities.tables').to.be.a('boolean');
      expect(provider.capabilities.ocr, 'capabilities.ocr').to.be.a('boolean');
    });

    it('names a file: URL as workerModule, whose module exports extract', async () => {
      expect(new URL(provider.workerModule).protocol, 'workerModule protocol').to.equal('file:');
      await loadWorkerExtract();
    });

    it('prepares the main thread, when it says it must, as often as the pipeline asks', async () => {
      if (provider.prepareMainThread === undefined) return;
      expect(provider.prepareMainThread, 'prepareMainThread').to.be.a('function');
      // The pipeline calls it before every extraction: it must be cheap and harmless the second time.
      await provider.prepareMainThread();
      await provider.prepareMainThread();
    });

    it('writes samples of the types it declares', async () => {
      for (const sample of await writeSamples()) {
        expect(provider.mediaTypes, `media type of ${sample.filename}`).to.include(sample.mediaType);
        expect(provider.extensions, `extension of ${sample.filename}`).to.include(
          extname(sample.filename).toLowerCase(),
        );
      }
    });

    it(
      'extracts each sample with the expected text in order and the expected ' +
        'headings, alike in-process and in the worker module',
      async () => {
        const workerExtract = await loadWorkerExtract();
        for (const sample of await writeSamples()) {
          const input = inputFor(sample);
          const inProcess = await provider.extract(input, new AbortController().signal);
          const inWorker = await workerExtract(input);
          expect(inWorker, `${sample.filename}: the worker module and extract() disagree`).to.deep.equal(inProcess);
          expectWellFormed(inProcess, sample.filename);
          expectTextInOrder(inProcess, sample);
          for (const heading of sample.headings ?? []) {
            const headings = inProcess.blocks.filter((block) => block.kind === 'heading').map((block) => block.text);
            expect(headings, `${sample.filename}: heading blocks`).to.include(heading);
          }
        }
      },
    );

    it('keeps non-ASCII text unchanged (at least one sample expects some)', async () => {
      const samples = await writeSamples();
      const unicodeSamples = samples.filter((sample) => sample.expect.some((text) => /[^\x00-\x7f]/.test(text)));
      expect(unicodeSamples, 'samples expecting non-ASCII text, such as "Zoë, 東京, ünïcødé"').to.not.be.empty;
      for (const sample of unicodeSamples) {
        const document = await provider.extract(inputFor(sample), new AbortController().signal);
        expectTextInOrder(document, sample);
      }
    });

    it(
      'rejects a corrupt file with a DocqaError naming the file, in-process and ' +
        'in the worker module, without an unhandled failure',
      async () => {
        const corrupt = await setup.corrupt(dir);
        const workerExtract = await loadWorkerExtract();
        const unhandled: unknown[] = [];
        const recordUnhandled = (reason: unknown) => unhandled.push(reason);
        process.on('unhandledRejection', recordUnhandled);
        try {
          for (const [path, run] of [
            ['extract()', () => provider.extract(inputFor(corrupt), new AbortController().signal)],
            ['worker module', () => workerExtract(inputFor(corrupt))],
          ] as const) {
            const error = await run().then(
              () => null,
              (failure: unknown) => failure,
            );
            expect(error, `${path}: extracting corrupt ${corrupt.filename} must fail`).to.be.an('error');
            expect(error, `${path}: error name`).to.have.property('name', 'DocqaError');
            expect(unreadableFileCodes, `${path}: error code`).to.include((error as { code?: string }).code);
            expect((error as Error).message, `${path}: the message must name the file`).to.include(corrupt.filename);
          }
          // Give a stray promise inside the extractor a moment to reject where nobody listens.
          await new Promise((resolve) => setTimeout(resolve, 50));
        } finally {
          process.off('unhandledRejection', recordUnhandled);
        }
        expect(unhandled, 'unhandled rejections while extracting a corrupt file').to.deep.equal([]);
      },
    );

    it('rejects with the reason of an aborted signal', async () => {
      const [sample] = await writeSamples();
      const controller = new AbortController();
      const reason = new Error('extraction cancelled by the conformance suite');
      controller.abort(reason);
      const error = await provider.extract(inputFor(sample!), controller.signal).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(error, 'extract() with an aborted signal must reject with the signal reason').to.equal(reason);
    });
  });
}

/** Text-bearing blocks have text; page breaks carry none; headings have a level from 1 to 6. */
function expectWellFormed(document: ExtractedDocument, filename: string): void {
  expect(document.metadata, `${filename}: metadata`).to.be.an('object');
  for (const [key, value] of Object.entries(document.metadata)) {
    expect(value, `${filename}: metadata.${key}`).to.be.a('string');
  }
  if (document.title !== undefined) expect(document.title, `${filename}: title`).to.be.a('string').and.not.equal('');
  document.blocks.forEach((block, index) => {
    const where = `${filename}: block ${index} (${block.kind})`;
    expect(['heading', 'paragraph', 'table_row', 'page_break'], where).to.include(block.kind);
    if (block.kind === 'page_break') return;
    expect(block.text.trim(), `${where} has empty text`).to.not.equal('');
    if (block.kind === 'heading') expect(block.level, `${where}: level`).to.be.oneOf([1, 2, 3, 4, 5, 6]);
  });
}

/** Every expected substring appears, each after the previous one, in the blocks' text joined. */
function expectTextInOrder(document: ExtractedDocument, sample: ExtractorSample): void {
  const text = document.blocks.map((block) => block.text).join('\n');
  let from = 0;
  for (const expected of sample.expect) {
    const at = text.indexOf(expected, from);
    if (at < 0) {
      const earlier = text.indexOf(expected);
      expect.fail(
        earlier >= 0
          ? `${sample.filename}: ${JSON.stringify(expected)} appears, but before the text expected ahead of it`
          : `${sample.filename}: ${JSON.stringify(expected)} is missing from the ` +
              `extracted text ${JSON.stringify(text.slice(0, 400))}`,
      );
    }
    from = at + expected.length;
  }
}
