import { expect } from 'chai';
import { z } from 'zod';
import { defineModule, definePlugin, DocqaError, type ConnectorEvent, type ConnectorProvider } from '@docqa/plugin-api';
import { provide, startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { standardModules } from '../index.js';
import txtExtractor from '@docqa/plugin-extractor-txt';
import { groupsTokens, type GroupsService } from '../groups/contract.js';
import { modelsTokens, type CurrentModels } from '../models/contract.js';
import { documentsTokens } from '../documents/contract.js';
import { sourcesTokens } from '../sources/contract.js';
import { syncQueue, syncTokens, type SyncOutcome } from './contract.js';
import { syncModule } from './index.js';

// The users' table the documents' uploader column references; in the product identity makes it.
const usersStandIn = defineModule({
  id: 'test-users',
  deps: {},
  provides: {},
  migrations: [{ name: '0001_test_app_user', up: ['create table app_user (id uuid primary key)'] }],
  init: () => ({}),
});

// An integration that finds two text files.
const notes = definePlugin({
  apiVersion: 1,
  kind: 'connector',
  id: 'integration-test-notes',
  configSchema: z.object({}),
  deps: {},
  init: (): ConnectorProvider<Record<string, never>> => ({
    type: 'notes',
    displayName: 'Notes',
    sourceKind: 'integration',
    sourceConfigSchema: z.strictObject({}),
    secretFields: [],
    capabilities: { incremental: false, deletions: false, acls: false },
    open: async () => ({
      async *sync(): AsyncGenerator<ConnectorEvent> {
        for (const name of ['alpha', 'beta'])
          yield {
            type: 'upsert',
            document: {
              externalId: name,
              path: `${name}.txt`,
              open: async () =>
                (async function* () {
                  yield new Uint8Array(Buffer.from(`The ${name} note says the quorum is seven members.`));
                })(),
            },
          };
      },
    }),
  }),
});

/** The standard modules a sync needs, composed as the product composes them. */
const standard = (...ids: string[]) => ids.map((id) => standardModules.find((module) => module.id === id)!);
const everyone = { scopeFor: async () => ({ all: true }) } as unknown as GroupsService;
const lexicalOnly: CurrentModels = { switchedChatBackend: () => null, embedder: () => null };
const admin = { userId: '5e0c4a4e-0000-4000-8000-000000000002', username: 'root', role: 'admin' as const };

describe('sync module (without the HTTP server)', function () {
  this.timeout(90_000);
  let kernel: TestKernel;

  before(async () => {
    kernel = await startTestModules({
      modules: [
        usersStandIn,
        ...standard('license', 'sources', 'rules', 'analytics', 'search', 'documents'),
        syncModule,
      ],
      provide: [provide(groupsTokens.service, everyone), provide(modelsTokens.current, lexicalOnly)],
      plugins: [
        { plugin: txtExtractor, options: {} },
        { plugin: notes, options: {} },
      ],
    });
  });
  after(() => kernel.dispose());

  async function finished(jobId: string): Promise<SyncOutcome> {
    for (let attempt = 0; attempt < 600; attempt++) {
      const job = await kernel.jobs.get<unknown>(syncQueue, jobId);
      if (job?.state === 'succeeded') return job.output as SyncOutcome;
      if (job?.state === 'failed' || job?.state === 'cancelled') throw new Error(`the sync ended ${job.state}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the sync did not finish within 60 s');
  }

  it('syncs an integration into documents, one job per source at a time, and removes it with them', async () => {
    const sources = kernel.resolve(sourcesTokens.service);
    const syncs = kernel.resolve(syncTokens.service);
    const documents = kernel.resolve(documentsTokens.service);
    const source = await sources.create('integration', { name: 'Notes', type: 'notes', config: {}, enabled: true });
    const [first, second] = await Promise.all([syncs.start(source, 'sync'), syncs.start(source, 'sync')]);
    expect(second).to.equal(first);
    expect(await finished(first)).to.include({ upserted: 2, skipped: 0 });
    const listed = await documents.list(admin, { limit: 10, offset: 0, sourceId: source.id });
    expect(listed.items.map((document) => document.filename).sort()).to.deep.equal(['alpha.txt', 'beta.txt']);

    await syncs.deleteSource('integration', source.id);
    expect(await sources.byId(source.id)).to.equal(null);
    expect((await documents.list(admin, { limit: 10, offset: 0 })).total).to.equal(0);
  });

  it('refuses to sync a disabled source', async () => {
    const sources = kernel.resolve(sourcesTokens.service);
    const off = await sources.create('integration', { name: 'Off', type: 'notes', config: {}, enabled: false });
    const refused = await kernel
      .resolve(syncTokens.service)
      .start(off, 'sync')
      .catch((error: unknown) => error);
    expect(DocqaError.is(refused, 'conflict')).to.equal(true);
  });
});
