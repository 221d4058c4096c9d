import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createModelFixtures, type ModelFixtures } from '../routes/models.test-support.js';
import { runInit } from './init.js';
import { runModels } from './models.js';

describe('docqa models and docqa init --pull-models (against a file server on loopback)', function () {
  this.timeout(60_000);
  let fixtures: ModelFixtures;
  let cwd: string;

  before(async () => {
    fixtures = await createModelFixtures();
  });
  after(async () => {
    await fixtures?.close();
  });
  beforeEach(() => {
    cwd = fs.mkdtempSync(path.join(fixtures.dir, 'install-'));
    fixtures.files.throttle(null);
  });

  /** Runs a command with the catalogue on loopback; MODELS_DIR is the default, <cwd>/data/models. */
  const run = async (argv: string[], tty = false) => {
    const lines: string[] = [];
    const drawn: string[] = [];
    const code = await runModels(argv, {
      cwd,
      env: { MODELS_CATALOGUE: fixtures.cataloguePath },
      out: (line) => lines.push(line),
      err: (line) => lines.push(line),
      progress: { isTTY: tty, write: (text) => drawn.push(text) },
      retryDelayMs: 10,
    });
    return { code, output: lines.join('\n'), drawn: drawn.join('') };
  };
  const modelsDir = () => path.join(cwd, 'data', 'models');

  it('pulls into <DOCQA_DATA_DIR>/models with a progress bar on a terminal, and lists what is installed', async () => {
    fixtures.files.dropNext('tiny-chat-b.gguf', 100_000);
    fixtures.files.throttle({ chunkBytes: 32 * 1024, delayMs: 5 });
    const pulled = await run(['pull', 'tiny-chat-b'], true);
    expect(pulled.code, pulled.output).to.equal(0);
    expect(pulled.output)
      .to.include(`Downloading tiny-chat-b (size unknown) from ${fixtures.files.url}/tiny-chat-b.gguf`)
      .and.include('SHA-256 verified');
    expect(pulled.drawn).to.match(/\rtiny-chat-b \[#+\] 100% /);
    expect(pulled.drawn.endsWith('\n')).to.equal(true);
    expect(fs.readdirSync(modelsDir())).to.deep.equal(['tiny-chat-b.gguf']);

    const listed = await run(['list']);
    expect(listed.output).to.match(/tiny-chat-a +chat +0\.5 MB +F32 +Apache-2\.0 +recommended/);
    expect(listed.output).to.match(/tiny-chat-b +chat .* installed/);
    expect(listed.output).to.include(`Installed in ${modelsDir()}:`);
    expect(listed.output).not.to.include('In use by the running service'); // no credentials given
  });

  it('pulls a reranking model, checking that the file is one, and lists it with its purpose', async () => {
    const pulled = await run(['pull', 'tiny-reranker']);
    expect(pulled.code, pulled.output).to.equal(0);
    const listed = await run(['list']);
    expect(listed.output).to.match(/tiny-reranker +reranking +.* installed/);
    expect(listed.output).to.match(/tiny-reranker +reranking +[0-9.]+ [kM]B +.*tiny-reranker\.gguf/);
  });

  it('draws no bar when the output is not a terminal', async () => {
    const pulled = await run(['pull', 'tiny-bert-48']);
    expect(pulled.code).to.equal(0);
    expect(pulled.drawn).to.equal('');
  });

  it('refuses a download whose checksum is wrong, with exit 1 and nothing installed', async () => {
    const pulled = await run(['pull', 'tampered']);
    expect(pulled.code).to.equal(1);
    expect(pulled.output).to.include('docqa models pull: Download refused: the SHA-256');
    expect(fs.existsSync(modelsDir()) ? fs.readdirSync(modelsDir()) : []).to.deep.equal([]);
  });

  it('imports a local GGUF (copy or hard link) after checking it, and refuses anything else', async () => {
    const copied = await run(['import', fixtures.sources['tiny-chat-a']!, '--name', 'offline-chat']);
    expect(copied.code, copied.output).to.equal(0);
    expect(copied.output).to.include('Imported offline-chat (chat, llama, F32');
    const linked = await run(['import', fixtures.sources['tiny-bert-48']!, '--link']);
    expect(linked.output).to.include('(hard link)');
    expect(fs.statSync(path.join(modelsDir(), 'tiny-bert-48.gguf')).ino).to.equal(
      fs.statSync(fixtures.sources['tiny-bert-48']!).ino,
    );

    const text = path.join(cwd, 'notes.gguf');
    fs.writeFileSync(text, 'not a model');
    const refused = await run(['import', text]);
    expect(refused.code).to.equal(1);
    expect(refused.output).to.include('is not a GGUF model');
    // Named like a catalogue model, but other bytes: it would be shown with that model's name and licence.
    const impostor = path.join(cwd, 'tiny-chat-b.gguf');
    fs.copyFileSync(fixtures.sources['tiny-chat-a']!, impostor);
    expect((await run(['import', impostor])).output).to.include('is named like the catalogue model tiny-chat-b');
    expect(fs.readdirSync(modelsDir()).sort()).to.deep.equal(['offline-chat.gguf', 'tiny-bert-48.gguf']);

    expect((await run(['rm', 'offline-chat'])).code).to.equal(0);
    expect((await run(['rm', 'offline-chat'])).code).to.equal(1);
    expect(fs.readdirSync(modelsDir())).to.deep.equal(['tiny-bert-48.gguf']);
  });

  it('docqa init --pull-models pulls the recommended pair and names them in .env', async () => {
    const lines: string[] = [];
    const code = await runInit({
      cwd,
      ifMissing: false,
      force: false,
      out: (line) => lines.push(line),
      pullModels: true,
      models: {
        env: { MODELS_CATALOGUE: fixtures.cataloguePath },
        err: (line) => lines.push(line),
        progress: { isTTY: false, write: () => true },
      },
    });
    expect(code, lines.join('\n')).to.equal(0);
    const env = fs.readFileSync(path.join(cwd, '.env'), 'utf8');
    expect(env)
      .to.include(`LLM_MODEL_PATH=${path.join(modelsDir(), 'tiny-chat-a.gguf')}`)
      .and.include(`EMBEDDING_MODEL_PATH=${path.join(modelsDir(), 'tiny-bert-48.gguf')}`);
    expect(fs.readdirSync(modelsDir()).sort()).to.deep.equal(['tiny-bert-48.gguf', 'tiny-chat-a.gguf']);
  });

  it('docqa init asks on a terminal (no by default) and downloads nothing unless asked', async () => {
    const questions: string[] = [];
    const declined = await runInit({
      cwd,
      ifMissing: false,
      force: false,
      out: () => undefined,
      pullModels: 'ask',
      models: {
        env: { MODELS_CATALOGUE: fixtures.cataloguePath },
        ask: async (question) => (questions.push(question), ''),
      },
    });
    expect(declined).to.equal(0);
    expect(questions[0])
      .to.include('tiny-chat-a (chat, 0.5 MB, Apache-2.0) and tiny-bert-48 (embedding')
      .and.include('[y/N]');
    expect(fs.existsSync(modelsDir())).to.equal(false);

    const requests = fixtures.files.requests.length;
    const plain = fs.mkdtempSync(path.join(fixtures.dir, 'install-'));
    expect(await runInit({ cwd: plain, ifMissing: false, force: false, out: () => undefined })).to.equal(0);
    expect(fs.readFileSync(path.join(plain, '.env'), 'utf8')).not.to.include('MODEL_PATH');
    expect(fixtures.files.requests.length).to.equal(requests);
  });
});
