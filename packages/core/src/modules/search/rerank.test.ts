import { expect } from 'chai';
import { z } from 'zod';
import { definePlugin, type RerankerProvider } from '@docqa/plugin-api';
import { provide, startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { groupsTokens, type GroupsService } from '../groups/contract.js';
import { modelsTokens, type CurrentModels } from '../models/contract.js';
import { searchTokens, type SearchService } from './contract.js';
import { searchModule } from './index.js';
import { documentsStandIn, insertDocument } from './search.test-support.js';

const everyone = { scopeFor: async () => ({ all: true }) } as unknown as GroupsService;
const lexicalOnly: CurrentModels = { switchedChatBackend: () => null, embedder: () => null };
const ada = { userId: '5e0c4a4e-0000-4000-8000-000000000001', username: 'ada', role: 'viewer' as const };

/**
 * Rerankers whose answers a test can predict (the real cross-encoder runs in the server's
 * end-to-end test): one that prefers longer passages, where BM25 puts the shortest first, and one that fails.
 */
const seen: Array<{ query: string; texts: readonly string[] }> = [];
const longestFirst: RerankerProvider = {
  model: 'longest-first',
  async rank(query, texts) {
    seen.push({ query, texts });
    return texts.map((text) => text.length);
  },
};
const broken: RerankerProvider = {
  model: 'broken',
  async rank() {
    throw new Error('the ranking context was disposed');
  },
};

/** A reranker plugin, as the kernel loads one. */
function rerankerPlugin(provider: RerankerProvider) {
  return definePlugin({
    apiVersion: 1,
    kind: 'reranker',
    id: `test-reranker-${provider.model}`,
    description: 'A reranker whose scores the test predicts.',
    configSchema: z.strictObject({}),
    deps: {},
    init: () => provider,
  });
}

const texts = {
  long: 'Cooling cooling cooling: the cooling period of the cooling unit lasts nine hours at most.',
  medium: 'Cooling: the period lasts two hours.',
  short: 'Cooling ends.',
};

async function startSearch(
  reranker: RerankerProvider | null,
  env: Record<string, string>,
  logs?: string[],
): Promise<{ kernel: TestKernel; search: SearchService; ids: Record<string, string> }> {
  const kernel = await startTestModules({
    modules: [documentsStandIn, searchModule],
    provide: [provide(groupsTokens.service, everyone), provide(modelsTokens.current, lexicalOnly)],
    plugins: reranker ? [{ plugin: rerankerPlugin(reranker) }] : [],
    env,
    ...(logs ? { logs } : {}),
  });
  const ids: Record<string, string> = {};
  for (const [name, text] of Object.entries(texts)) ids[name] = await insertDocument(kernel.db, `${name}.txt`, [text]);
  return { kernel, search: kernel.resolve(searchTokens.service), ids };
}

describe('search reranking (RAG_RERANK_ENABLED)', function () {
  this.timeout(60_000);
  const enabled = { RAG_RERANK_ENABLED: 'true', RAG_RERANK_MODEL: 'bge-reranker-v2-m3' };

  it("reorders the fused top RAG_RERANK_CANDIDATES by the reranker's scores before cutting to top_k", async () => {
    const { kernel, search, ids } = await startSearch(longestFirst, { ...enabled, RAG_RERANK_CANDIDATES: '3' });
    try {
      seen.length = 0;
      const result = await search.search(ada, { query: 'cooling', topK: 2 });
      // BM25's order (length-normalised) is short, long, medium; the reranker's long, medium, short.
      expect(seen).to.deep.equal([{ query: 'cooling', texts: [texts.short, texts.long, texts.medium] }]);
      expect(result.items.map((item) => item.document_id)).to.deep.equal([ids.long, ids.medium]);
      expect(result.items.map((item) => item.score)).to.deep.equal([texts.long.length, texts.medium.length]);
      expect(result.retrieval_settings.rerank).to.equal('applied');
      expect(result.timing.rerank).to.be.a('number').and.at.least(0);
    } finally {
      await kernel.dispose();
    }
  });

  it('ranks at least top_k candidates when top_k is above RAG_RERANK_CANDIDATES', async () => {
    const { kernel, search } = await startSearch(longestFirst, { ...enabled, RAG_RERANK_CANDIDATES: '1' });
    try {
      seen.length = 0;
      await search.search(ada, { query: 'cooling', topK: 3 });
      expect(seen[0]?.texts).to.have.lengthOf(3);
    } finally {
      await kernel.dispose();
    }
  });

  it('answers in the fused order, says `failed` and logs why when the reranker fails', async () => {
    const logs: string[] = [];
    const { kernel, search, ids } = await startSearch(broken, enabled, logs);
    try {
      const result = await search.search(ada, { query: 'cooling', topK: 3 });
      expect(result.items.map((item) => item.document_id)).to.deep.equal([ids.short, ids.long, ids.medium]);
      expect(result.retrieval_settings.rerank).to.equal('failed');
      expect(result.timing.rerank).to.be.a('number');
      const warning = logs
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.model === 'broken');
      expect(warning?.msg).to.equal('reranking failed; the search answers in the fused order');
      expect(JSON.stringify(warning?.err)).to.include('the ranking context was disposed');
    } finally {
      await kernel.dispose();
    }
  });

  it('leaves search as it was when RAG_RERANK_ENABLED is off: no rerank field, no timing.rerank', async () => {
    const { kernel, search, ids } = await startSearch(longestFirst, {});
    try {
      seen.length = 0;
      const result = await search.search(ada, { query: 'cooling', topK: 3 });
      expect(result.items.map((item) => item.document_id)).to.deep.equal([ids.short, ids.long, ids.medium]);
      expect(result.retrieval_settings).to.not.have.property('rerank');
      expect(result.timing).to.not.have.property('rerank');
      expect(seen).to.deep.equal([]);
    } finally {
      await kernel.dispose();
    }
  });
});
