import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { startModelFileServer, writeTinyLlamaChatModel, type ModelFileServer } from '@docqa/plugin-testkit';
import { download, sha256Of } from './download.js';
import { hasGgufMagic } from './gguf.js';

describe('model download (real files, an HTTP server on loopback)', function () {
  this.timeout(30_000);
  let dir: string;
  let server: ModelFileServer;
  let model: string;
  let size: number;
  let digest: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-download-'));
    fs.mkdirSync(path.join(dir, 'source'));
    model = (await writeTinyLlamaChatModel(path.join(dir, 'source', 'tiny.gguf'))).path;
    size = fs.statSync(model).size;
    digest = await sha256Of(model);
    server = await startModelFileServer();
  });
  after(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.throttle(null);
  });

  const target = (name: string) => path.join(dir, 'models', name);
  const leftovers = (name: string) =>
    fs.readdirSync(path.dirname(target(name))).filter((file) => file.startsWith(name) && file !== name);

  it('downloads, checks size and SHA-256, and renames the verified file into place', async () => {
    const url = server.serve('whole.gguf', model);
    const seen: number[] = [];
    const result = await download({
      url,
      destination: target('whole.gguf'),
      expectedBytes: size,
      sha256: digest,
      onProgress: (p) => seen.push(p.receivedBytes),
      verify: async (part) => void expect(await hasGgufMagic(part)).to.equal(true),
    });
    expect(result).to.include({ bytes: size, sha256: digest, resumedFromBytes: 0, attempts: 1 });
    expect(fs.readFileSync(target('whole.gguf')).equals(fs.readFileSync(model))).to.equal(true);
    expect(seen.at(-1)).to.equal(size);
    expect(leftovers('whole.gguf')).to.deep.equal([]);
  });

  it('resumes with a Range request after the connection drops mid-file', async () => {
    const url = server.serve('dropped.gguf', model);
    const half = Math.floor(size / 2);
    server.dropNext('dropped.gguf', half);
    const result = await download({ url, destination: target('dropped.gguf'), sha256: digest, retryDelayMs: 10 });
    expect(result).to.include({ bytes: size, sha256: digest, attempts: 2 });
    expect(server.requests.map((r) => [r.range, r.status])).to.deep.equal([
      [null, 200],
      [`bytes=${half}-`, 206],
    ]);
    // The resume names the file it continues: a changed file would come back whole.
    expect(server.requests[1]!.ifRange).to.match(/^"\d+-\d+"$/);
    expect(fs.readFileSync(target('dropped.gguf')).equals(fs.readFileSync(model))).to.equal(true);
  });

  it('keeps the .part when stopped, never the destination, and a later run resumes it', async () => {
    const url = server.serve('stopped.gguf', model);
    server.throttle({ chunkBytes: 4096, delayMs: 20 });
    const stop = new AbortController();
    const stopped = download({
      url,
      destination: target('stopped.gguf'),
      sha256: digest,
      signal: stop.signal,
      onProgress: (p) => p.receivedBytes > 3 * 4096 && stop.abort(new Error('cancelled')),
    });
    const error = await stopped.then(
      () => null,
      (failure: unknown) => failure,
    );
    expect((error as Error).message).to.equal('cancelled');
    expect(fs.existsSync(target('stopped.gguf'))).to.equal(false);
    const kept = fs.statSync(`${target('stopped.gguf')}.part`).size;
    expect(kept).to.be.greaterThan(0).and.lessThan(size);

    server.throttle(null);
    const result = await download({ url, destination: target('stopped.gguf'), sha256: digest });
    expect(result.resumedFromBytes).to.equal(kept);
    expect(server.requests.at(-1)).to.include({ range: `bytes=${kept}-`, status: 206 });
    expect(fs.readFileSync(target('stopped.gguf')).equals(fs.readFileSync(model))).to.equal(true);
    expect(leftovers('stopped.gguf')).to.deep.equal([]);
  });

  it('starts over when the file changed on the server since the .part began (If-Range)', async () => {
    const changing = path.join(dir, 'source', 'changing.gguf');
    fs.copyFileSync(model, changing);
    const url = server.serve('changing.gguf', changing);
    server.throttle({ chunkBytes: 1000, delayMs: 50 });
    const stop = new AbortController();
    await download({
      url,
      destination: target('changing.gguf'),
      signal: stop.signal,
      onProgress: () => stop.abort(new Error('stop')),
    }).catch(() => undefined);
    const kept = fs.statSync(`${target('changing.gguf')}.part`).size;
    expect(kept).to.be.greaterThan(0);
    server.throttle(null);
    const other = await writeTinyLlamaChatModel(changing, { seed: 7 });
    fs.utimesSync(other.path, new Date(), new Date(Date.now() + 5000));
    const result = await download({ url, destination: target('changing.gguf'), sha256: await sha256Of(other.path) });
    expect(server.requests.at(-1)).to.include({ range: `bytes=${kept}-`, status: 200 });
    expect(result.sha256).to.equal(await sha256Of(other.path));
  });

  it('refuses a file whose SHA-256 is wrong: nothing at the destination, the download discarded', async () => {
    const url = server.serve('tampered.gguf', model);
    const wrong = 'f'.repeat(64);
    const error = await download({ url, destination: target('tampered.gguf'), sha256: wrong }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.be.instanceOf(DocqaError).with.property('code', 'validation_failed');
    expect((error as Error).message)
      .to.include(`the catalogue says ${wrong}`)
      .and.include(digest);
    expect(fs.existsSync(target('tampered.gguf'))).to.equal(false);
    expect(leftovers('tampered.gguf')).to.deep.equal([]);
  });

  it("refuses a size other than the catalogue's before downloading it, and a missing file as not_found", async () => {
    const url = server.serve('sized.gguf', model);
    const wrongSize = await download({ url, destination: target('sized.gguf'), expectedBytes: size + 1 }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(wrongSize).to.be.instanceOf(DocqaError).with.property('code', 'validation_failed');
    expect((wrongSize as Error).message).to.include(`has ${size} bytes, the catalogue says ${size + 1}`);
    const missing = await download({ url: `${server.url}/nothing.gguf`, destination: target('nothing.gguf') }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(missing).to.be.instanceOf(DocqaError).with.property('code', 'not_found');
    expect(fs.existsSync(target('sized.gguf')) || fs.existsSync(target('nothing.gguf'))).to.equal(false);
  });

  it('lets one download of a file run at a time', async () => {
    const url = server.serve('twice.gguf', model);
    server.throttle({ chunkBytes: 8192, delayMs: 10 });
    const first = download({ url, destination: target('twice.gguf') });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await download({ url, destination: target('twice.gguf') }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(second).to.be.instanceOf(DocqaError).with.property('code', 'conflict');
    await first;
    expect(fs.readFileSync(target('twice.gguf')).equals(fs.readFileSync(model))).to.equal(true);
  });
});
