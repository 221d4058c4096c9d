import crypto from 'node:crypto';
import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { provide, startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { groupsTokens, type GroupsService } from '../groups/contract.js';
import { modelsTokens, type CurrentModels } from '../models/contract.js';
import { analyzerVersion } from '../../index.js';
import { searchTokens, storedAnalyzerVersion, type SearchFilters, type SearchService } from './contract.js';
import { searchModule } from './index.js';
import { documentsStandIn, insertDocument } from './search.test-support.js';

const everyone = { scopeFor: async () => ({ all: true }) } as unknown as GroupsService;
const lexicalOnly: CurrentModels = { switchedChatBackend: () => null, embedder: () => null };
const feedSource = '5e0c4a4e-0000-4000-8000-0000000000fe';
const ada = { userId: '5e0c4a4e-0000-4000-8000-000000000001', username: 'ada', role: 'viewer' as const };

describe('search module (without the HTTP server)', function () {
  this.timeout(60_000);
  let kernel: TestKernel;
  let search: SearchService;
  const ids: Record<string, string> = {};

  before(async () => {
    kernel = await startTestModules({
      modules: [documentsStandIn, searchModule],
      provide: [provide(groupsTokens.service, everyone), provide(modelsTokens.current, lexicalOnly)],
      env: { FILTER_MAX_KEYS: '2' },
    });
    search = kernel.resolve(searchTokens.service);
    ids.cooling = await insertDocument(kernel.db, 'cooling.txt', ['The cooling period lasts nine hours.'], {
      metadata: { region: 'EU' },
    });
    ids.heating = await insertDocument(kernel.db, 'heating.txt', ['The heating period lasts two hours.'], {
      metadata: { region: 'US' },
    });
    ids.draft = await insertDocument(kernel.db, 'draft.txt', ['A cooling draft not indexed yet.'], {
      status: 'indexing',
    });
    ids.feed = await insertDocument(kernel.db, 'feed.txt', ['The feed lasts a week.'], {
      source: { type: 'integration', id: feedSource },
    });
  });
  after(() => kernel?.dispose());

  it('records the current analysis on a database without chunks, with no re-index job', async () => {
    // The module's worker start ran before any document was inserted (before()).
    expect(await storedAnalyzerVersion(kernel.db)).to.equal(analyzerVersion);
    const { rows } = await kernel.db.query<{ n: string }>(
      `select count(*) as n from pgboss.job where name = 'lexical_reindex'`,
    );
    expect(Number(rows[0]?.n)).to.equal(0);
  });

  it('ranks by BM25 over indexed documents only, lexically when no embedder is in effect', async () => {
    const result = await search.search(ada, { query: 'cooling period', topK: 5 });
    expect(result.retrieval_settings.mode).to.equal('lexical');
    expect(result.items.map((item) => item.document_id)).to.deep.equal([ids.cooling, ids.heating]);
    expect(result.items[0]).to.include({ title: 'cooling.txt', text: 'The cooling period lasts nine hours.' });
  });

  it('narrows by metadata and by document ids', async () => {
    const byRegion = await search.search(ada, { query: 'period', topK: 5, filters: { metadata: { region: 'US' } } });
    expect(byRegion.items.map((item) => item.document_id)).to.deep.equal([ids.heating]);
    const byId = await search.search(ada, { query: 'period', topK: 5, filters: { document_ids: [ids.cooling!] } });
    expect(byId.items.map((item) => item.document_id)).to.deep.equal([ids.cooling]);
  });

  it('narrows by source: the kind of source, and one connector or integration (#29 item 11)', async () => {
    const found = async (filters: SearchFilters) =>
      (await search.search(ada, { query: 'lasts', topK: 5, filters })).items.map((item) => item.document_id);
    expect(await found({ source_type: 'integration' })).to.deep.equal([ids.feed]);
    expect(await found({ source_id: feedSource })).to.deep.equal([ids.feed]);
    expect(await found({ source_type: 'upload' })).to.have.members([ids.cooling, ids.heating]);
    expect(await found({ source_type: 'connector' })).to.deep.equal([]);
    expect(await found({ source_id: crypto.randomUUID() })).to.deep.equal([]);
  });

  it('refuses a filter past FILTER_MAX_KEYS with a 422 naming the setting, before any SQL', () => {
    const filters = { metadata: { a: '1', b: '2', c: '3' } };
    const error = (() => {
      try {
        search.checkFilters(filters);
        return null;
      } catch (caught) {
        return caught;
      }
    })();
    expect(DocqaError.is(error, 'validation_failed')).to.equal(true);
    expect((error as DocqaError).message).to.contain('FILTER_MAX_KEYS');
  });
});
