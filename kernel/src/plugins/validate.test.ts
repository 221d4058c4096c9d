import { expect } from 'chai';
import { z } from 'zod';
import { definePlugin, providerTokens, tokens, type AnyPlugin, type VectorStoreProvider } from '@docqa/plugin-api';
import { planPlugins } from './validate.js';
import type { ResolvedEntry } from './resolve.js';

const fakeStore = {} as VectorStoreProvider;

const vectorStore = (id: string) =>
  definePlugin({
    apiVersion: 1,
    kind: 'vectorStore',
    id,
    configSchema: z.strictObject({ size: z.number().int().positive().default(1) }),
    deps: { db: tokens.db },
    init: () => fakeStore,
  });

const needsEmbedder = definePlugin({
  apiVersion: 1,
  kind: 'vectorStore',
  id: 'vectorstore-needs-embedder',
  configSchema: z.object({}),
  deps: { embedder: providerTokens.embedder },
  init: () => fakeStore,
});

const entry = (plugin: AnyPlugin, options: unknown = {}, instanceId = plugin.id): ResolvedEntry => ({
  instanceId,
  plugin,
  options,
  origin: 'test',
});

describe('plugin plan', () => {
  it('accepts valid plugins and applies option defaults', () => {
    const { plan, problems } = planPlugins([entry(vectorStore('vectorstore-a') as AnyPlugin)]);
    expect(problems).to.deep.equal([]);
    expect(plan[0]?.options).to.deep.equal({ size: 1 });
  });

  it('reports every problem at once, each naming its plugin instance', () => {
    const { plan, problems } = planPlugins([
      entry(vectorStore('vectorstore-a') as AnyPlugin, { size: -2 }, 'main-vectors'),
      entry(vectorStore('vectorstore-b') as AnyPlugin, { colour: 'red' }, 'other-vectors'),
      {
        instanceId: 'broken',
        plugin: null,
        options: {},
        origin: 'docqa.config.json',
        problem: "cannot load './nope.js': not found",
      },
    ]);
    expect(plan).to.deep.equal([]);
    expect(problems).to.have.length(4);
    expect(problems[0]).to.match(/^plugin instance 'main-vectors' \(vectorstore-a\) from test: option 'size'/);
    expect(problems[1]).to.include("plugin instance 'other-vectors'").and.include('a second vectorStore plugin');
    expect(problems[2]).to.include("plugin instance 'other-vectors'").and.include('colour');
    expect(problems[3]).to.include("plugin instance 'broken'").and.include('./nope.js');
  });

  it('refuses a second provider of a single-provider kind, naming both', () => {
    const { problems } = planPlugins([
      entry(vectorStore('vectorstore-a') as AnyPlugin),
      entry(vectorStore('vectorstore-b') as AnyPlugin, {}, 'extra'),
    ]);
    expect(problems).to.have.length(1);
    expect(problems[0])
      .to.include("plugin instance 'extra'")
      .and.include('a second vectorStore plugin')
      .and.include("'vectorstore-a'");
  });

  it('refuses duplicate instance ids and foreign contract versions', () => {
    const old = { ...vectorStore('vectorstore-old'), apiVersion: 0 } as unknown as AnyPlugin;
    const { problems } = planPlugins([
      entry(old),
      entry(vectorStore('vectorstore-a') as AnyPlugin, {}, 'vectorstore-old'),
    ]);
    expect(problems.join('\n'))
      .to.include('plugin API version 0')
      .and.include("instance id 'vectorstore-old' is already used");
  });

  it('refuses a dependency that nothing provides', () => {
    const { problems } = planPlugins([entry(needsEmbedder as AnyPlugin)]);
    expect(problems).to.have.length(1);
    expect(problems[0])
      .to.include("plugin instance 'vectorstore-needs-embedder'")
      .and.include('needs a embedder plugin');
  });

  it('orders plugins after the kinds they depend on', () => {
    const embedder = definePlugin({
      apiVersion: 1,
      kind: 'embedder',
      id: 'embedder-fake',
      configSchema: z.object({}),
      deps: {},
      init: () => ({ space: { model: 'm', dimensions: 2 }, maxInputTokens: 8, embed: async () => [] }),
    });
    const { plan, problems } = planPlugins([entry(needsEmbedder as AnyPlugin), entry(embedder as AnyPlugin)]);
    expect(problems).to.deep.equal([]);
    expect(plan.map((item) => item.instanceId)).to.deep.equal(['embedder-fake', 'vectorstore-needs-embedder']);
  });
});
