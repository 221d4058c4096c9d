import { expect } from 'chai';
import { heapGrowthFlag } from './memory-policy.js';

describe('the heap growth policy', () => {
  it('sets V8\'s growing factor from HEAP_GROWING_PERCENT, 30 by default', () => {
    expect(heapGrowthFlag([], {})).to.equal('--heap-growing-percent=30');
    expect(heapGrowthFlag(['--enable-source-maps'], { HEAP_GROWING_PERCENT: '50' })).to.equal('--heap-growing-percent=50');
  });

  it('leaves V8 its own choice at 0, and leaves a flag given to node alone, in either spelling', () => {
    expect(heapGrowthFlag([], { HEAP_GROWING_PERCENT: '0' })).to.equal(null);
    expect(heapGrowthFlag(['--heap-growing-percent=80'], { HEAP_GROWING_PERCENT: '50' })).to.equal(null);
    expect(heapGrowthFlag(['--heap_growing_percent=80'], {})).to.equal(null);
    expect(heapGrowthFlag(['--heap-growing-percentage-of-nothing'], {})).to.equal('--heap-growing-percent=30');
  });

  it('sets nothing for an invalid value, which the configuration check then reports', () => {
    expect(heapGrowthFlag([], { HEAP_GROWING_PERCENT: 'lots' })).to.equal(null);
    expect(heapGrowthFlag([], { HEAP_GROWING_PERCENT: '900' })).to.equal(null);
  });
});
