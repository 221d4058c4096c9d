import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const tickShape = fileURLToPath(new URL('./tick-shape.ts', import.meta.url));

/**
 * A node process that calls nextTick a few hundred times, then runs full collections with no tick
 * queued (as the embedded database's start does), then prints V8's view of nextTick: the state of
 * the inline caches of the literal it makes tick objects with (%DebugPrint, node 24's V8).
 */
async function literalCacheStates(hold: boolean): Promise<string[]> {
  const script = `
    const { holdTickObjectShape } = await import(${JSON.stringify(tickShape)});
    if (${hold}) holdTickObjectShape();
    const ticks = async (n) => {
      for (let k = 0; k < n; k++) {
        for (let i = 0; i < 100; i++) process.nextTick(() => {});
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await ticks(3);
    for (let round = 0; round < 4; round++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      globalThis.gc();
      await ticks(20);
    }
    // Optimised code prints without the states of its feedback; dropped, the feedback stays.
    new Function('f', '%DeoptimizeFunction(f); %DebugPrint(f)')(process.nextTick);
    new Function('o', '%DebugPrint(o)')([]); // where the first print ends
  `;
  // V8 prints through buffers of its own that a pipe can get out of order; a file gets them whole.
  const folder = await mkdtemp(path.join(os.tmpdir(), 'docqa-tick-'));
  const output = await open(path.join(folder, 'stdout'), 'w');
  try {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--allow-natives-syntax', '--expose-gc', '--input-type=module', '-e', script],
      { stdio: ['ignore', output.fd, 'inherit'] },
    );
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).to.equal(0);
  } finally {
    await output.close();
  }
  const stdout = await readFile(path.join(folder, 'stdout'), 'utf8');
  await rm(folder, { recursive: true, force: true });
  const nextTick = stdout.slice(0, stdout.indexOf('DebugPrint', 1));
  return [...nextTick.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]!);
}

describe('holdTickObjectShape', function () {
  this.timeout(30_000);

  it("keeps nextTick's tick-object literal monomorphic through full collections", async () => {
    const states = await literalCacheStates(true);
    expect(states).to.have.length.greaterThan(0);
    expect(
      states.every((state) => state === 'MONOMORPHIC'),
      states.join(' '),
    ).to.equal(true);
  });

  it('is what keeps it so: without it the same collections make the literal megamorphic', async () => {
    expect(await literalCacheStates(false)).to.include('MEGAMORPHIC');
  });

  it('leaves no hook behind', async () => {
    const { executionAsyncId } = await import('node:async_hooks');
    const { holdTickObjectShape } = await import('./tick-shape.js');
    holdTickObjectShape();
    const ids: number[] = [];
    process.nextTick(() => ids.push(executionAsyncId()));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ids).to.have.length(1);
  });
});
