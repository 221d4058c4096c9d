import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pino from 'pino';
import { LineBatch, type BatchTarget } from './line-batch.js';

/** A stream that records what it is given, standing in for sonic-boom where no file is needed. */
class RecordingTarget implements BatchTarget {
  readonly fd = -1;
  readonly written: string[] = [];
  flushes = 0;
  destroyed = false;
  write(text: string): boolean {
    this.written.push(text);
    return true;
  }
  flush(callback?: (error?: Error | null) => void): void {
    this.flushes++;
    callback?.(null);
  }
  flushSync(): void {
    this.flushes++;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

const line = (n: number) => `{"n":${n},"pad":"${'x'.repeat(40)}"}\n`;

describe('LineBatch (the default log destination holds lines and writes them a batch at a time)', () => {
  const batches: LineBatch[] = [];
  const batch = (target: BatchTarget, minLength: number, intervalMs = 60_000) => {
    const made = new LineBatch(target, minLength, intervalMs);
    batches.push(made);
    return made;
  };
  afterEach(() => batches.splice(0).forEach((made) => made.destroy()));

  it('hands the stream nothing until it holds minLength characters, then everything held as one text', () => {
    const target = new RecordingTarget();
    const lines = Array.from({ length: 10 }, (_, n) => line(n));
    const minLength = lines[0]!.length * 4;
    const destination = batch(target, minLength);
    for (const text of lines.slice(0, 3)) destination.write(text);
    expect(target.written, 'below minLength').to.deep.equal([]);
    destination.write(lines[3]!);
    expect(target.written).to.deep.equal([lines.slice(0, 4).join('')]);
    for (const text of lines.slice(4)) destination.write(text);
    destination.flush();
    expect(target.written.join(''), 'every line once, in the order written').to.equal(lines.join(''));
    expect(target.written).to.have.length(3);
  });

  it('hands what it holds to the stream within the flush interval when nothing else is written', async () => {
    const target = new RecordingTarget();
    const destination = batch(target, 1 << 20, 50);
    destination.write(line(1));
    expect(target.written).to.deep.equal([]);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(target.written).to.deep.equal([line(1)]);
  });

  it("flush hands over what it holds before the stream's own flush, and calls back", async () => {
    const target = new RecordingTarget();
    const destination = batch(target, 1 << 20);
    destination.write(line(1));
    await new Promise<void>((resolve) => destination.flush(() => resolve()));
    expect(target.written).to.deep.equal([line(1)]);
    expect(target.flushes).to.equal(1);
  });

  it("flushSync writes the stream's lines, then its own, to the file before it returns", () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-batch-'));
    try {
      const file = path.join(directory, 'log');
      const stream = pino.destination({ dest: fs.openSync(file, 'a'), sync: true, minLength: 4096 });
      const destination = batch(stream as unknown as BatchTarget, 2 * line(0).length);
      destination.write(line(1));
      destination.write(line(2));
      destination.write(line(3));
      destination.flushSync();
      expect(fs.readFileSync(file, 'utf8')).to.equal(line(1) + line(2) + line(3));
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });

  it('destroy stops the timer and destroys the stream', async () => {
    const target = new RecordingTarget();
    const destination = new LineBatch(target, 1 << 20, 20);
    destination.write(line(1));
    destination.destroy();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(target.destroyed).to.equal(true);
    expect(target.written, 'the timer no longer runs').to.deep.equal([]);
  });
});
