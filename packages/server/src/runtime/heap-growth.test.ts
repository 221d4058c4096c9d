import { expect } from 'chai';
import { heapGrowingPercent, heapGrowthFlag } from './heap-growth.js';

describe('the heap growth policy', () => {
  it('sets V8\'s growing factor when nobody chose one', () => {
    expect(heapGrowthFlag([], undefined)).to.equal(`--heap-growing-percent=${heapGrowingPercent}`);
    expect(heapGrowthFlag(['--enable-source-maps'], '--max-old-space-size=512')).to.equal(`--heap-growing-percent=${heapGrowingPercent}`);
  });

  it('leaves an operator\'s own choice alone, on the command line or in NODE_OPTIONS, in either spelling', () => {
    expect(heapGrowthFlag(['--heap-growing-percent=0'], undefined)).to.equal(null);
    expect(heapGrowthFlag([], '--enable-source-maps --heap-growing-percent=80')).to.equal(null);
    expect(heapGrowthFlag([], '--heap_growing_percent=50')).to.equal(null);
  });

  it('is not fooled by a flag whose name merely starts the same', () => {
    expect(heapGrowthFlag(['--heap-growing-percentage-of-nothing'], undefined)).to.equal(`--heap-growing-percent=${heapGrowingPercent}`);
  });
});
