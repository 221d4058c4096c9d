import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  getLlama,
  LlamaChat,
  resolveChatWrapper,
  type ChatHistoryItem,
  type Llama,
  type LlamaContext,
  type LlamaModel,
} from 'node-llama-cpp';
import { writeTinyLlamaChatModel } from './index.js';

const question: ChatHistoryItem[] = [
  { type: 'system', text: 'Answer from the passages.' },
  { type: 'user', text: 'How long are invoices archived?' },
];

describe('testkit GGUF: writeTinyLlamaChatModel', function () {
  this.timeout(60_000);
  let directory: string;
  let llama: Llama;
  const opened: Array<{ model: LlamaModel; context: LlamaContext }> = [];

  async function open(path: string) {
    const model = await llama.loadModel({ modelPath: path, gpuLayers: 0 });
    const context = await model.createContext({ contextSize: Math.min(model.trainContextSize, 1024), threads: 1 });
    opened.push({ model, context });
    return { model, context };
  }

  async function answer(path: string, maxTokens: number, temperature = 0) {
    const { model, context } = await open(path);
    const chat = new LlamaChat({
      contextSequence: context.getSequence(),
      chatWrapper: resolveChatWrapper(model, { warningLogs: false }),
    });
    const pieces: string[] = [];
    const result = await chat.generateResponse(structuredClone(question), {
      maxTokens,
      temperature,
      seed: 1,
      onToken: (tokens) => pieces.push(...tokens.map(String)),
    });
    return { text: result.response, stopReason: result.metadata.stopReason, tokens: pieces.length, model };
  }

  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'docqa-tiny-llama-'));
    llama = await getLlama({ gpu: false, build: 'never', logger: () => {} });
  });

  after(async () => {
    for (const { model, context } of opened) {
      await context.dispose();
      await model.dispose();
    }
    await llama?.dispose();
    await rm(directory, { recursive: true, force: true });
  });

  it('writes a llama model of a few hundred KB with a ChatML template, its name and its training context', async () => {
    const written = await writeTinyLlamaChatModel(join(directory, 'tiny.gguf'), { contextLength: 1024 });
    expect(written).to.include({ contextLength: 1024, dimensions: 64, vocabSize: 259 });
    expect((await stat(written.path)).size).to.be.within(100_000, 1_000_000);
    const { model } = await open(written.path);
    expect(model.trainContextSize).to.equal(1024);
    expect(model.fileInfo.metadata.general.name).to.equal('docqa-tiny-random-llama-64d');
    expect(resolveChatWrapper(model, { warningLogs: false }).wrapperName).to.equal('ChatML');
    // Byte-level BPE without merges: one token per UTF-8 byte, special tokens only when asked for.
    expect(model.tokenize('héllo')).to.have.lengthOf(6);
    expect(model.tokenize('<|im_end|>', true)).to.deep.equal([written.specialTokens['<|im_end|>']]);
  });

  it('generates printable text until maxTokens, at any temperature, deterministically at 0', async () => {
    const { path } = await writeTinyLlamaChatModel(join(directory, 'generate.gguf'));
    const greedy = await answer(path, 40);
    expect(greedy.stopReason).to.equal('maxTokens');
    expect(greedy.tokens).to.equal(40);
    expect(greedy.text).to.match(/^[\x20-\x7e]{40}$/);
    expect(greedy.text.trim()).to.not.equal('');
    expect((await answer(path, 40)).text, 'temperature 0 repeats itself').to.equal(greedy.text);

    const hot = await answer(path, 40, 1.5);
    expect(hot.stopReason).to.equal('maxTokens');
    expect(hot.text).to.match(/^[\x20-\x7e]{40}$/);
  });

  it('writes the same file for the same seed, and another model for another seed', async () => {
    const first = await writeTinyLlamaChatModel(join(directory, 'seed-1.gguf'), { seed: 5 });
    const again = await writeTinyLlamaChatModel(join(directory, 'seed-1-again.gguf'), { seed: 5 });
    const other = await writeTinyLlamaChatModel(join(directory, 'seed-2.gguf'), {
      seed: 6,
      layers: 1,
      heads: 2,
      name: 'other',
    });
    expect((await readFile(first.path)).equals(await readFile(again.path))).to.equal(true);
    expect((await answer(other.path, 24)).text).to.not.equal((await answer(first.path, 24)).text);
    expect(
      await writeTinyLlamaChatModel(join(directory, 'bad.gguf'), { dimensions: 64, heads: 5 }).then(
        () => null,
        (error: Error) => error.message,
      ),
    ).to.match(/heads \(5\)/);
  });

  it('loads and generates fast enough for unit tests (reports load time and tokens per second)', async () => {
    const { path } = await writeTinyLlamaChatModel(join(directory, 'speed.gguf'));
    const loadStarted = performance.now();
    const { model, context } = await open(path);
    const loadMs = performance.now() - loadStarted;
    const chat = new LlamaChat({
      contextSequence: context.getSequence(),
      chatWrapper: resolveChatWrapper(model, { warningLogs: false }),
    });
    const maxTokens = 256;
    const started = performance.now();
    await chat.generateResponse(structuredClone(question), { maxTokens, temperature: 0 });
    const perSecond = maxTokens / ((performance.now() - started) / 1000);
    console.log(
      `      tiny llama (64 dimensions, 2 layers, 1 thread): loaded with a context in ${Math.round(loadMs)} ms, ${Math.round(perSecond)} tokens/s`,
    );
    expect(perSecond).to.be.greaterThan(50);
  });
});
