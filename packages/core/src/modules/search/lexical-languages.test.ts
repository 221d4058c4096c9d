import { expect } from 'chai';
import { provide, startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { groupsTokens, type GroupsService } from '../groups/contract.js';
import { modelsTokens, type CurrentModels } from '../models/contract.js';
import { searchTokens, type SearchService } from './contract.js';
import { searchModule } from './index.js';
import { documentsStandIn, insertDocument } from './search.test-support.js';

const everyone = { scopeFor: async () => ({ all: true }) } as unknown as GroupsService;
const lexicalOnly: CurrentModels = { switchedChatBackend: () => null, embedder: () => null };
const ada = { userId: '5e0c4a4e-0000-4000-8000-000000000001', username: 'ada', role: 'viewer' as const };

// A search analyses its query under the corpus languages the previous search saw, and checks them in
// the statement that reads the statistics: a change in between must be seen by the very next search.
describe('search: the query is analysed under the corpus languages of the moment', function () {
  this.timeout(60_000);
  let kernel: TestKernel;
  let search: SearchService;

  before(async () => {
    kernel = await startTestModules({
      modules: [documentsStandIn, searchModule],
      provide: [provide(groupsTokens.service, everyone), provide(modelsTokens.current, lexicalOnly)],
    });
    search = kernel.resolve(searchTokens.service);
    await insertDocument(kernel.db, 'kiwis.txt', [
      'The farmers were carefully ripening their kiwis in the warm sun of the southern valleys every summer.',
    ]);
  });
  after(() => kernel?.dispose());

  const found = async (query: string) =>
    (await search.search(ada, { query, topK: 10 })).items.map((item) => item.title);

  it('a change of the chunks languages after a search changes the next search analysis', async () => {
    // English: "kiwis" is stemmed to the posting's term "kiwi".
    await kernel.db.query(`update chunk set language = 'en'`);
    expect(await found('kiwis')).to.deep.equal(['kiwis.txt']);
    // No language told: the query is analysed without stemming ("kiwis"), which no posting holds.
    await kernel.db.query('update chunk set language = null');
    expect(await found('kiwis')).to.deep.equal([]);
    expect(await found('kiwi')).to.deep.equal(['kiwis.txt']);
    // And back: the languages the previous search saw (none) are not kept either.
    await kernel.db.query(`update chunk set language = 'en'`);
    expect(await found('kiwis')).to.deep.equal(['kiwis.txt']);
  });
});
