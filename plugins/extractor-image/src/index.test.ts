import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import sharp from 'sharp';
import { DocqaError, type ExtractedDocument, type ExtractorInput, type ExtractorProvider } from '@docqa/plugin-api';
import { describeExtractorConformance } from '@docqa/plugin-testkit';
import imageExtractorPlugin, { imageExtractorProvider, stopOcrWorkers } from './index.js';
import { maxOcrPixels, upscaleFactor } from './normalise-image.js';
import { refusedMarker, writeOfflineGuard } from './offline-guard.test.helper.js';
import { withOcr } from './ocr-enabled.test.helper.js';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Lines of dark text on a light background, drawn by librsvg with the system's fonts (DejaVu here). */
function textSvg(lines: string[], { fontSize = 44, width = 760, transparent = false } = {}): Buffer {
  const lineHeight = Math.round(fontSize * 1.4);
  const height = lineHeight * lines.length + fontSize;
  const text = lines.map((line, index) => `<text x="24" y="${lineHeight * (index + 1)}">${line}</text>`).join('');
  const background = transparent ? '' : '<rect width="100%" height="100%" fill="#fafafa"/>';
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${background}` +
      `<g font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" fill="#111">${text}</g></svg>`,
  );
}

const png = (svg: Buffer) => sharp(svg).png().toBuffer();
const jpeg = (svg: Buffer) => sharp(svg).flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer();

async function twoPageTiff(first: Buffer, second: Buffer): Promise<Buffer> {
  // A joined "animated" image is written as one TIFF directory (page) per frame.
  return sharp([await png(first), await png(second)], { join: { animated: true } })
    .tiff()
    .toBuffer();
}

const documentText = (document: ExtractedDocument) => document.blocks.map((block) => block.text).join('\n');

/** OCR is allowed its noise: each word must appear, case-insensitively, somewhere in the text. */
function expectWords(document: ExtractedDocument, words: string[]): void {
  const text = documentText(document).toLowerCase();
  expect(text.trim(), 'OCR text').to.not.equal('');
  for (const word of words) expect(text, `OCR text ${JSON.stringify(text)}`).to.include(word.toLowerCase());
}

/** The conformance suite extracts with OCR off (the pipeline's default); it checks this provider with OCR on. */
const ocrOnProvider: ExtractorProvider = {
  ...imageExtractorProvider,
  workerModule: new URL('./ocr-enabled.test.helper.js', import.meta.url).href,
  extract: (input, signal) => imageExtractorProvider.extract(withOcr(input), signal),
};

describe('extractor-image', function () {
  // Every test here runs with outgoing connections refused in this thread; the offline test covers all threads.
  const refused: string[] = [];
  let guardDir = '';
  let preloadUrl = '';
  let uninstallGuard = () => {};
  before(async () => {
    guardDir = await mkdtemp(join(tmpdir(), 'extractor-image-guard-'));
    const guard = await writeOfflineGuard(guardDir);
    preloadUrl = guard.preloadUrl;
    uninstallGuard = guard.installOfflineGuard((target) => refused.push(target));
    const rendered = await sharp(await png(textSvg(['x'])))
      .greyscale()
      .stats();
    expect(rendered.channels[0]!.min, 'SVG text rendered nothing: install a font (fonts-dejavu-core)').to.be.below(100);
  });
  after(async () => {
    uninstallGuard();
    await stopOcrWorkers();
    await rm(guardDir, { recursive: true, force: true });
    expect(refused, 'outgoing connections attempted').to.deep.equal([]);
  });

  describeExtractorConformance('extractor-image', {
    provider: ocrOnProvider,
    async samples(dir) {
      const files = {
        // A transparent background, as screenshots and exported diagrams have: flattened onto white.
        png: [
          join(dir, 'leaf.png'),
          await png(textSvg(['Photosynthesis converts light', 'in the café garden'], { transparent: true })),
        ],
        jpeg: [join(dir, 'scan.jpg'), await jpeg(textSvg(['Chlorophyll absorbs sunlight']))],
        tiff: [
          join(dir, 'fax.tiff'),
          await twoPageTiff(textSvg(['First page about roots']), textSvg(['Second page about leaves'])),
        ],
      } as const;
      for (const [path, bytes] of Object.values(files)) await writeFile(path, bytes);
      return [
        {
          path: files.png[0],
          filename: 'leaf.png',
          mediaType: 'image/png',
          expect: ['Photosynthesis', 'light', 'café'],
        },
        { path: files.jpeg[0], filename: 'scan.jpg', mediaType: 'image/jpeg', expect: ['Chlorophyll', 'sunlight'] },
        {
          path: files.tiff[0],
          filename: 'fax.tiff',
          mediaType: 'image/tiff',
          expect: ['First page', 'roots', 'Second page', 'leaves'],
        },
      ];
    },
    async corrupt(dir) {
      // A real PNG cut in half: the header reads fine, the pixels do not.
      const whole = await png(textSvg(['cut short']));
      const path = join(dir, 'torn.png');
      await writeFile(path, whole.subarray(0, Math.floor(whole.length / 2)));
      return { path, filename: 'torn.png', mediaType: 'image/png' };
    },
  });

  describe('OCR', function () {
    let dir = '';
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'extractor-image-'));
    });
    after(() => rm(dir, { recursive: true, force: true }));

    async function inputFor(filename: string, bytes: Buffer, ocrLanguages?: string[]): Promise<ExtractorInput> {
      const path = join(dir, filename);
      await writeFile(path, bytes);
      const input = {
        path,
        filename,
        mediaType: 'image/png',
        options: { ocr: false, ocrLanguages: [], tables: false },
      };
      return ocrLanguages ? withOcr(input, ocrLanguages) : input;
    }

    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: unknown) => error,
      );
    const extractText = async (input: ExtractorInput) =>
      imageExtractorProvider.extract(input, new AbortController().signal);

    it('declares the image types and OCR', () => {
      expect(imageExtractorPlugin.id).to.equal('extractor-image');
      expect(imageExtractorProvider.mediaTypes).to.deep.equal(['image/png', 'image/jpeg', 'image/tiff']);
      expect(imageExtractorProvider.extensions).to.deep.equal(['.png', '.jpg', '.jpeg', '.tif', '.tiff']);
      expect(imageExtractorProvider.capabilities).to.deep.equal({ tables: false, ocr: true });
    });

    it('refuses an image when OCR is off, saying how to turn it on', async () => {
      const error = await failure(extractText(await inputFor('photo.png', await png(textSvg(['hello'])))));
      expect(DocqaError.is(error, 'unsupported_media_type'), String(error)).to.equal(true);
      expect((error as DocqaError).status).to.equal(415);
      expect((error as Error).message).to.equal(
        'photo.png is an image; set INDEXING_OCR_ENABLED=true to read text from images',
      );
    });

    it('refuses a file that is no image, and an image of a type it does not read, naming the file', async () => {
      const error = await failure(extractText(await inputFor('notes.png', Buffer.from('just some text'), ['eng'])));
      expect(DocqaError.is(error, 'unsupported_media_type'), String(error)).to.equal(true);
      expect((error as Error).message).to.match(/^notes\.png is not a readable image: /);
      const webp = await sharp(textSvg(['hi']))
        .webp()
        .toBuffer();
      const webpError = await failure(extractText(await inputFor('disguised.png', webp, ['eng'])));
      expect((webpError as Error).message).to.equal('disguised.png is a webp image; only PNG, JPEG and TIFF are read');
    });

    it('names the npm package of an OCR language that is not installed', async () => {
      const error = await failure(
        extractText(await inputFor('greek.png', await png(textSvg(['hello'])), ['eng', 'xyz'])),
      );
      expect(DocqaError.is(error, 'validation_failed'), String(error)).to.equal(true);
      expect((error as Error).message).to.equal(
        'OCR language "xyz" is not installed (npm package @tesseract.js-data/xyz)',
      );
    });

    it('numbers the pages of a TIFF, breaks between them and reports OCR and its confidence', async () => {
      const tiff = await twoPageTiff(textSvg(['Roots drink water']), textSvg(['Leaves breathe air']));
      const document = await extractText(await inputFor('two.tif', tiff, ['eng']));
      expectWords(document, ['roots', 'water', 'leaves', 'air']);
      expect(document.blocks.map((block) => [block.kind, block.page])).to.deep.equal([
        ['paragraph', 1],
        ['page_break', 2],
        ['paragraph', 2],
      ]);
      expect(document.metadata).to.include({ ocr: 'true', pages: '2' });
      expect(Number(document.metadata.ocr_confidence)).to.be.within(60, 100);
    });

    it('turns a photo upright by its EXIF orientation', async () => {
      // Pixels stored lying on their side, with EXIF orientation 6 ("turn 90° clockwise to view").
      const sideways = await sharp(await png(textSvg(['Stomata open at dawn'])))
        .rotate(-90)
        .jpeg()
        .withMetadata({ orientation: 6 })
        .toBuffer();
      expectWords(await extractText(await inputFor('phone.jpg', sideways, ['eng'])), ['stomata', 'open', 'dawn']);
    });

    it('upscales small text before reading it', async () => {
      // At 8 px tesseract reads "Kylem carries water upward Pakcen moves sugar dow" without the upscale.
      const tiny = await png(
        textSvg(['Xylem carries water upward', 'Phloem moves sugar down'], { fontSize: 8, width: 160 }),
      );
      expectWords(await extractText(await inputFor('tiny.png', tiny, ['eng'])), [
        'xylem',
        'carries water',
        'phloem',
        'moves sugar',
      ]);
      expect(upscaleFactor(10, { width: 100, height: 100 }), 'to the target height, at most 4 times').to.equal(4);
      expect(upscaleFactor(20, { width: 100, height: 100 })).to.equal(2);
      expect(upscaleFactor(20, { width: 4000, height: 3000 }), 'within the pixel budget').to.be.closeTo(
        Math.sqrt(maxOcrPixels / 12e6),
        1e-9,
      );
      expect(upscaleFactor(20, { width: 5000, height: 4500 }), 'not worth a second pass').to.equal(1);
      expect(upscaleFactor(30, { width: 100, height: 100 }), 'tall enough').to.equal(1);
      expect(upscaleFactor(0, { width: 100, height: 100 }), 'no text found').to.equal(1);
    });

    it('reads an image with every outgoing connection refused, in all threads, from a cold start', async () => {
      const image = join(dir, 'offline.png');
      await writeFile(image, await png(textSvg(['Offline reading works'])));
      const script = await writeOfflineChild(dir, image);
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', '--conditions', 'docqa-source', '--import', preloadUrl, script],
        { cwd: repositoryRoot, timeout: 30_000 },
      );
      const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
        guardedMain: boolean;
        guardedThread: boolean;
        text: string;
      };
      expect(result.guardedMain, 'the guard refuses connections in the main thread').to.equal(true);
      expect(result.guardedThread, 'the guard refuses connections in worker threads').to.equal(true);
      // Only the two self-checks may have been refused: OCR itself must not have tried to connect anywhere.
      const attempts = stderr.split('\n').filter((line) => line.startsWith(refusedMarker));
      expect(attempts, stderr).to.deep.equal([`${refusedMarker} 203.0.113.7:443`, `${refusedMarker} 203.0.113.7:443`]);
      expect(result.text.toLowerCase()).to.include('offline').and.include('works');
    });

    it('stops a recognition when the signal aborts, and reads again afterwards', async () => {
      // A page of many lines keeps tesseract busy for a good second: the abort lands mid-recognition.
      const lines = Array.from({ length: 30 }, (_, index) => `Line ${index} of guard cells that swell and shrink`);
      const input = await inputFor('abort.png', await png(textSvg(lines, { fontSize: 36, width: 1100 })), ['eng']);
      const controller = new AbortController();
      const reason = new Error('stop now');
      const startedAt = Date.now();
      const running = failure(imageExtractorProvider.extract(input, controller.signal));
      setTimeout(() => controller.abort(reason), 300);
      expect(await running).to.equal(reason);
      expect(Date.now() - startedAt, 'rejected as soon as aborted').to.be.below(1000);
      const small = await inputFor('after-abort.png', await png(textSvg(['Guard cells swell'])), ['eng']);
      expectWords(await extractText(small), ['guard', 'cells']);
    });
  });
});

/** The offline test's child: checks the guard holds in both kinds of thread, then OCRs with a new tesseract worker. */
async function writeOfflineChild(dir: string, image: string): Promise<string> {
  const extractUrl = new URL('./extract.ts', import.meta.url).href;
  const input = {
    path: image,
    filename: 'offline.png',
    mediaType: 'image/png',
    options: { ocr: true, ocrLanguages: ['eng'], tables: false },
  };
  // 203.0.113.7 is a documentation address (TEST-NET-3): were the guard missing, nothing would answer.
  const tryConnect = `(() => { try { require('node:net').connect(443, '203.0.113.7').on('error', () => {}); return false; } catch { return true; } })()`;
  // A thread from a file, like tesseract's: Node runs --import preloads in those (not in eval threads).
  const threadCheck = join(dir, 'thread-check.cjs');
  await writeFile(threadCheck, `require('node:worker_threads').parentPort.postMessage(${tryConnect});`);
  const script = join(dir, 'offline-child.mts');
  await writeFile(
    script,
    `
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { extract } from ${JSON.stringify(extractUrl)};
const require = createRequire(import.meta.url);
const guardedMain = ${tryConnect};
const guardedThread = await new Promise((resolve) => {
  const worker = new Worker(${JSON.stringify(threadCheck)});
  worker.once('message', resolve);
  worker.once('error', () => resolve(false));
});
const document = await extract(${JSON.stringify(input)});
console.log(JSON.stringify({ guardedMain, guardedThread, text: document.blocks.map((block) => block.text).join(' ') }));
process.exit(0);
`,
  );
  return script;
}
