import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { bufferedLogDestination, createLogger, logFlushIntervalMs } from './logger.js';

const loggerModule = new URL('./logger.ts', import.meta.url).href;
const privacy = { anonymiseUsers: false, redactQueries: false };
const messagesIn = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: string }).msg);

/**
 * A process that logs two lines with the default destination on `file`'s descriptor (`fd`), then
 * ends as `ending` says; its exit code and what it wrote to standard error.
 */
function logThenEnd(file: string, ending: string): Promise<{ exitCode: number | null; stderr: string }> {
  const code = `
    const fs = await import('node:fs');
    const { bufferedLogDestination, createLogger } = await import(${JSON.stringify(loggerModule)});
    const fd = fs.openSync(${JSON.stringify(file)}, 'a');
    const logger = createLogger({ level: 'INFO', privacy: ${JSON.stringify(privacy)}, hashKey: 'k',
      destination: bufferedLogDestination(fd) });
    logger.info('first');
    logger.error('second');
    ${ending}`;
  const execArgv = process.execArgv.filter((flag) => !/^--inspect/.test(flag));
  const child = spawn(process.execPath, [...execArgv, '--input-type=module', '-e', code], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (exitCode) => resolve({ exitCode, stderr })));
}

describe('the default log destination (buffered, flushed within a second)', function () {
  let directory: string;
  beforeEach(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-log-'));
  });
  afterEach(() => fs.rmSync(directory, { recursive: true, force: true }));

  it('writes a line within the flush interval even when nothing else is logged', async () => {
    const file = path.join(directory, 'log');
    const destination = bufferedLogDestination(fs.openSync(file, 'a'));
    const logger = createLogger({ level: 'INFO', privacy, hashKey: 'k', destination });
    try {
      logger.info('alone');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(messagesIn(file), 'buffered, not written at once').to.deep.equal([]);
      await new Promise((resolve) => setTimeout(resolve, logFlushIntervalMs + 500));
      expect(messagesIn(file)).to.deep.equal(['alone']);
    } finally {
      (destination as unknown as { destroy(): void }).destroy();
    }
  });

  it('ends quietly when its output is gone by the time the process exits', async () => {
    const ended = await logThenEnd(path.join(directory, 'log'), 'fs.closeSync(fd);');
    expect(ended).to.deep.equal({ exitCode: 0, stderr: '' });
  });

  for (const [how, ending, exitCode] of [
    ['the process exits', 'process.exit(0);', 0],
    ['the event loop runs dry', '', 0],
    ['a fatal error ends the process', "throw new Error('fatal');", 1],
  ] as const) {
    it(`writes what is buffered when ${how}`, async () => {
      const file = path.join(directory, 'log');
      expect((await logThenEnd(file, ending)).exitCode).to.equal(exitCode);
      expect(messagesIn(file)).to.deep.equal(['first', 'second']);
    });
  }
});
