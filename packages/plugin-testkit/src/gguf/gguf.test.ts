import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { getLlama, readGgufFileInfo, type Llama, type LlamaEmbeddingContext, type LlamaModel } from 'node-llama-cpp';
import { float32ToFloat16Bits, gguf, writeGguf } from './gguf-writer.js';
import { writeTinyBertEmbeddingModel } from './index.js';

describe('testkit GGUF', function () {
  let directory: string;

  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'docqa-gguf-'));
  });

  after(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  describe('writeGguf', () => {
    it('writes a v3 header, typed metadata and tensor infos that an independent reader (node-llama-cpp) reads back', async () => {
      const path = join(directory, 'typed.gguf');
      await writeGguf(path, {
        metadata: {
          'general.architecture': gguf.string('llama'),
          'test.count': gguf.uint32(4_000_000_000),
          'test.offset': gguf.int32(-7),
          'test.ratio': gguf.float32(0.5),
          'test.flag': gguf.bool(true),
          'test.words': gguf.strings(['a', 'ünïcødé', '']),
          'test.ints': gguf.int32s([1, -2, 3]),
          'test.floats': gguf.float32s([0.25, -1.5]),
        },
        tensors: [
          { name: 'odd', shape: [3], type: 'F32', data: new Float32Array([1, 2, 3]) },
          { name: 'matrix', shape: [2, 3], type: 'F16', data: new Float32Array([1, -2, 0.5, 0, 65504, -0.25]) },
        ],
      });

      const info = await readGgufFileInfo(path, { sourceType: 'filesystem', logWarnings: false });
      expect(info.version).to.equal(3);
      const metadata = info.metadata as unknown as Record<string, Record<string, unknown>>;
      expect(metadata.test).to.deep.include({ count: 4_000_000_000, offset: -7, ratio: 0.5, flag: true });
      expect(metadata.test?.words).to.deep.equal(['a', 'ünïcødé', '']);
      expect(metadata.test?.ints).to.deep.equal([1, -2, 3]);
      expect(metadata.test?.floats).to.deep.equal([0.25, -1.5]);
      expect(
        info.tensorInfo?.map(({ name, dimensions, offset }) => ({
          name,
          dimensions: dimensions.map(Number),
          offset: Number(offset),
        })),
      ).to.deep.equal([
        { name: 'odd', dimensions: [3], offset: 0 },
        { name: 'matrix', dimensions: [2, 3], offset: 32 }, // 12 bytes of 'odd' padded to the 32-byte alignment
      ]);

      const bytes = await readFile(path);
      expect(bytes.subarray(0, 4).toString('latin1')).to.equal('GGUF');
      const dataStart = bytes.length - 32 - 32; // two tensors, each padded to one 32-byte slot
      expect(dataStart % 32).to.equal(0);
      expect(bytes.readFloatLE(dataStart + 8)).to.equal(3);
      expect(bytes.readUInt16LE(dataStart + 32 + 2)).to.equal(0xc000); // -2 in half precision
      expect(bytes.readUInt16LE(dataStart + 32 + 8)).to.equal(0x7bff); // 65504, the largest half
    });

    it('converts to half precision with rounding, subnormals and infinities', () => {
      expect(float32ToFloat16Bits(1)).to.equal(0x3c00);
      expect(float32ToFloat16Bits(-0)).to.equal(0x8000);
      expect(float32ToFloat16Bits(1 + 2 ** -11)).to.equal(0x3c00); // a tie rounds to even
      expect(float32ToFloat16Bits(1 + 3 * 2 ** -11)).to.equal(0x3c02);
      expect(float32ToFloat16Bits(2 ** -24)).to.equal(0x0001); // smallest subnormal
      expect(float32ToFloat16Bits(1e-9)).to.equal(0);
      expect(float32ToFloat16Bits(70_000)).to.equal(0x7c00);
      expect(float32ToFloat16Bits(Number.NaN) & 0x7e00).to.equal(0x7e00);
    });

    it('refuses a tensor whose data does not fill its shape, and a duplicate tensor name', async () => {
      const path = join(directory, 'bad.gguf');
      const failure = (tensors: Parameters<typeof writeGguf>[1]['tensors']) =>
        writeGguf(path, { metadata: {}, tensors }).then(
          () => null,
          (error: Error) => error.message,
        );
      expect(await failure([{ name: 'short', shape: [2, 2], type: 'F32', data: new Float32Array(3) }])).to.match(
        /'short'.*needs 4 values, got 3/,
      );
      const one = { name: 'twice', shape: [1], type: 'F32' as const, data: new Float32Array(1) };
      expect(await failure([one, one])).to.match(/'twice' is listed twice/);
    });
  });

  describe('writeTinyBertEmbeddingModel', function () {
    this.timeout(60_000);
    let llama: Llama;
    const opened: Array<{ model: LlamaModel; context: LlamaEmbeddingContext }> = [];

    async function embedderFor(path: string) {
      const model = await llama.loadModel({ modelPath: path, gpuLayers: 0 });
      const context = await model.createEmbeddingContext({ threads: 1 });
      opened.push({ model, context });
      return async (text: string) => (await context.getEmbeddingFor(text)).vector;
    }

    before(async () => {
      llama = await getLlama({ gpu: false, build: 'never', logger: () => {} });
    });

    after(async () => {
      for (const { model, context } of opened) {
        await context.dispose();
        await model.dispose();
      }
      await llama?.dispose();
    });

    it('writes a BERT model llama.cpp loads and embeds with into `dimensions` finite numbers', async () => {
      const model = await writeTinyBertEmbeddingModel(join(directory, 'tiny.gguf'));
      expect(model).to.include({ dimensions: 32, contextLength: 512 });
      const embed = await embedderFor(model.path);

      const hello = await embed('hello world');
      expect(hello).to.have.lengthOf(32);
      expect(hello.every(Number.isFinite), 'all finite').to.equal(true);
      expect(
        hello.some((value) => value !== 0),
        'not all zero',
      ).to.equal(true);
      expect(await embed('hello world'), 'the same text, the same vector').to.deep.equal(hello);
      const other = await embed('a different sentence about documents');
      expect(distance(hello, other), 'different texts, different vectors').to.be.greaterThan(1e-3);
    });

    it('honours dimensions, layers, heads and seed, and writes the same file for the same seed', async () => {
      const wide = await writeTinyBertEmbeddingModel(join(directory, 'wide.gguf'), {
        dimensions: 48,
        layers: 2,
        heads: 4,
        seed: 7,
      });
      const again = await writeTinyBertEmbeddingModel(join(directory, 'wide-again.gguf'), {
        dimensions: 48,
        layers: 2,
        heads: 4,
        seed: 7,
      });
      const reseeded = await writeTinyBertEmbeddingModel(join(directory, 'wide-other-seed.gguf'), {
        dimensions: 48,
        layers: 2,
        heads: 4,
        seed: 8,
      });
      expect((await readFile(wide.path)).equals(await readFile(again.path)), 'same seed, same bytes').to.equal(true);

      const text = 'the quick brown fox';
      const fromWide = await (await embedderFor(wide.path))(text);
      expect(fromWide).to.have.lengthOf(48);
      expect(
        distance(fromWide, await (await embedderFor(reseeded.path))(text)),
        'another seed, other weights',
      ).to.be.greaterThan(1e-3);
    });

    it('takes a custom WordPiece vocabulary and refuses one without the special tokens', async () => {
      const vocab = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'doc', '##qa', 'search'];
      const model = await writeTinyBertEmbeddingModel(join(directory, 'custom-vocab.gguf'), { vocab });
      expect(model.vocabSize).to.equal(vocab.length);
      expect(await (await embedderFor(model.path))('docqa search')).to.have.lengthOf(32);

      const error = await writeTinyBertEmbeddingModel(join(directory, 'no-cls.gguf'), {
        vocab: ['[PAD]', '[UNK]', '[SEP]', '[MASK]', 'a'],
      }).then(
        () => null,
        (failure: Error) => failure.message,
      );
      expect(error).to.match(/no \[CLS\] token/);
    });

    it('embeds quickly enough for unit tests (reports embeddings per second)', async () => {
      const embed = await embedderFor((await writeTinyBertEmbeddingModel(join(directory, 'speed.gguf'))).path);
      const count = 200;
      const started = performance.now();
      for (let index = 0; index < count; index += 1)
        await embed(`sentence number ${index} about searching a document index`);
      const perSecond = count / ((performance.now() - started) / 1000);
      console.log(`      tiny BERT (32 dimensions, 1 layer, 1 thread): ${Math.round(perSecond)} embeddings/s`);
      expect(perSecond).to.be.greaterThan(20);
    });
  });
});

function distance(left: readonly number[], right: readonly number[]): number {
  return Math.hypot(...left.map((value, index) => value - (right[index] ?? 0)));
}
