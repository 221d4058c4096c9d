import { expect } from 'chai';
import { encodeWindow, openWindow, type OpenWindow } from './term-windows.js';
import { TermWindowCache } from './window-cache.js';

/** A term's windows: `count` windows of one posting each (~16 kB opened apiece: bitmap and rank table). */
function windows(count: number): Map<number, OpenWindow> {
  return new Map(
    Array.from({ length: count }, (_, n) => [n, openWindow(encodeWindow([{ offset: n, tf: 1, length: 10 }]))]),
  );
}

describe('the opened term windows held between searches', () => {
  it('answers a term only for the build it was read from, and starts over at a newer build', () => {
    const cache = new TermWindowCache(1 << 20);
    const river = windows(2);
    cache.set('100/a', 'river', river);
    expect(cache.get('100/a', 'river')).to.equal(river);
    expect(cache.get('200/b', 'river')).to.equal(undefined);
    cache.set('200/b', 'forest', windows(1));
    expect(cache.build).to.equal('200/b');
    expect(cache.get('100/a', 'river')).to.equal(undefined);
    expect(cache.get('200/b', 'river')).to.equal(undefined);
  });

  it('keeps within its budget, dropping the least recently used term first', () => {
    const perWindow = [...windows(1).values()].reduce(
      (sum, w) => sum + w.bits.byteLength + w.tf.byteLength + w.lengths.byteLength + w.rankBefore.byteLength,
      0,
    );
    const cache = new TermWindowCache(5 * perWindow);
    cache.set('1/x', 'river', windows(2));
    cache.set('1/x', 'forest', windows(2));
    expect(cache.get('1/x', 'river')).to.not.equal(undefined); // river is now the most recent
    cache.set('1/x', 'valley', windows(2));
    expect(cache.bytes).to.be.at.most(5 * perWindow);
    expect(cache.get('1/x', 'forest')).to.equal(undefined);
    expect(cache.get('1/x', 'river')).to.not.equal(undefined);
    expect(cache.get('1/x', 'valley')).to.not.equal(undefined);
    // A term larger than the whole budget is not held, and drops nothing.
    cache.set('1/x', 'harbour', windows(6));
    expect(cache.get('1/x', 'harbour')).to.equal(undefined);
    expect(cache.get('1/x', 'river')).to.not.equal(undefined);
  });
});
