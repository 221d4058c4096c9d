import { expect } from 'chai';
import { heapGrowthFlag, launchSettings, launchSettingValues, missingLaunchSettings } from './memory-policy.js';

describe('the heap growth policy', () => {
  it("sets V8's growing factor from HEAP_GROWING_PERCENT, 30 by default", () => {
    expect(heapGrowthFlag([], {})).to.equal('--heap-growing-percent=30');
    expect(heapGrowthFlag(['--enable-source-maps'], { HEAP_GROWING_PERCENT: '50' })).to.equal(
      '--heap-growing-percent=50',
    );
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

describe('the memory launch settings', () => {
  const all = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '65536' };

  it('names every setting a bare `node cli.js serve` lacks', () => {
    expect(missingLaunchSettings([], {})).to.deep.equal(Object.keys(launchSettings));
    expect(missingLaunchSettings(['--enable-source-maps'], { MALLOC_ARENA_MAX: ' ' })).to.deep.equal([
      'MALLOC_ARENA_MAX',
      'MALLOC_MMAP_THRESHOLD_',
      '--max-semi-space-size',
      '--no-memory-reducer',
    ]);
  });

  it('finds the young generation flag on the command line or in NODE_OPTIONS, in either spelling', () => {
    const reducer = '--no-memory-reducer';
    expect(missingLaunchSettings(['--max-semi-space-size=4', reducer], all)).to.deep.equal([]);
    expect(
      missingLaunchSettings([reducer], { ...all, NODE_OPTIONS: '--enable-source-maps --max_semi_space_size=8' }),
    ).to.deep.equal([]);
    expect(missingLaunchSettings(['--max-semi-space-size-of-nothing', reducer], all)).to.deep.equal([
      '--max-semi-space-size',
    ]);
  });

  it('finds the memory reducer turned off in either spelling, and reads no value after it', () => {
    const young = '--max-semi-space-size=4';
    expect(missingLaunchSettings([young, '--no_memory_reducer'], all)).to.deep.equal([]);
    expect(missingLaunchSettings([young, '--memory-reducer'], all)).to.deep.equal(['--no-memory-reducer']);
    expect(launchSettingValues(['--no-memory-reducer', '--enable-source-maps'], all)['--no-memory-reducer']).to.equal(
      '',
    );
  });

  it("takes an operator's own values as set", () => {
    expect(
      missingLaunchSettings(['--max-semi-space-size=16', '--no-memory-reducer'], {
        MALLOC_ARENA_MAX: '4',
        MALLOC_MMAP_THRESHOLD_: '131072',
      }),
    ).to.deep.equal([]);
  });

  it('is what npm start, npm run docqa and the image use', async () => {
    const { readFile } = await import('node:fs/promises');
    const root = new URL('../../../../', import.meta.url);
    const scripts = (
      JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    const launches = [scripts.docqa!, scripts.start!.split('&&').at(-1)!, scripts['bench:ingest']!.split('&&').at(-1)!];
    const image = await readFile(new URL('docker/Dockerfile', root), 'utf8');
    const entrypoint = await readFile(new URL('docker/docqa.sh', root), 'utf8');
    for (const [name, value] of Object.entries(launchSettings)) {
      const flag = value === '' ? name : `${name}=${value}`;
      const setting = name.startsWith('--') ? flag : `${name}=\${${name}:-${value}}`;
      for (const launch of launches) expect(launch, launch).to.include(setting);
      expect(name.startsWith('--') ? entrypoint : image).to.include(
        name.startsWith('--') ? setting : `${name}=${value}`,
      );
    }
  });
});
