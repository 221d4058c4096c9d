import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { z } from 'zod';
import { definePlugin, definePreset, type VectorStoreProvider } from '@docqa/plugin-api';
import { readPluginFile, resolveEntries } from './resolve.js';

const store = definePlugin({
  apiVersion: 1,
  kind: 'vectorStore',
  id: 'vectorstore-fake',
  configSchema: z.object({ m: z.number().default(16), ef: z.number().default(40) }),
  deps: {},
  init: () => ({}) as VectorStoreProvider,
});
const preset = definePreset({ id: 'p', description: 'test', plugins: () => [{ plugin: store, options: { m: 8 } }] });
const context = { variable: () => undefined };

describe('plugin entries', () => {
  it('merges "configure" over the preset options of that instance', async () => {
    const entries = await resolveEntries(preset, context, {
      path: '/etc/docqa/docqa.config.json',
      content: { configure: { 'vectorstore-fake': { ef: 100 } } },
    });
    expect(entries).to.have.length(1);
    expect(entries[0]?.options).to.deep.equal({ m: 8, ef: 100 });
  });

  it('"disable" leaves a preset instance out; naming an unknown one in "configure" is a problem', async () => {
    const entries = await resolveEntries(preset, context, {
      path: '/x/docqa.config.json',
      content: { disable: ['vectorstore-fake'], configure: { 'vector-typo': {} } },
    });
    expect(entries.map((entry) => entry.instanceId)).to.deep.equal(['vector-typo']);
    expect(entries[0]?.problem).to.include('"configure" names it');
  });

  it('loads a plugin module by path relative to the configuration file and reports one that is not a plugin', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-plugin-file-'));
    fs.writeFileSync(path.join(dir, 'not-a-plugin.mjs'), 'export default { hello: 1 };\n');
    fs.writeFileSync(
      path.join(dir, 'docqa.config.json'),
      JSON.stringify({ plugins: [{ use: './not-a-plugin.mjs', instance: 'odd' }, { use: './missing.mjs' }] }),
    );
    const file = readPluginFile(undefined, dir);
    const entries = await resolveEntries(
      definePreset({ id: 'empty', description: '', plugins: () => [] }),
      context,
      file,
    );
    expect(entries.map((entry) => entry.instanceId)).to.deep.equal(['odd', 'missing.mjs']);
    expect(entries[0]?.problem)
      .to.include("cannot load './not-a-plugin.mjs'")
      .and.include('no plugin as its default export');
    expect(entries[1]?.problem).to.include("cannot load './missing.mjs'").and.include('Cannot find');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a malformed configuration file with its path', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-plugin-file-'));
    fs.writeFileSync(path.join(dir, 'docqa.config.json'), '{"plugins": {"use": 1}}');
    expect(() => readPluginFile(undefined, dir)).to.throw(/docqa.config.json: "plugins" must be a list/);
    expect(() => readPluginFile('nope.json', dir)).to.throw('DOCQA_CONFIG_FILE="nope.json" does not exist');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
