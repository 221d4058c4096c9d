import crypto from 'node:crypto';
import { expect } from 'chai';
import { defineModule, DocqaError, type SqlExecutor } from '@docqa/plugin-api';
import { provide, startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { groupsTokens, type GroupsService } from '../groups/contract.js';
import { modelsTokens, type CurrentModels } from '../models/contract.js';
import { analyzerVersion } from '../../index.js';
import {
  analyseChunks,
  searchTokens,
  storedAnalyzerVersion,
  writePostings,
  type SearchFilters,
  type SearchService,
} from './contract.js';
import { searchModule } from './index.js';

// The documents' tables as search reads them; in the product the documents' migrations make them.
const documentsStandIn = defineModule({
  id: 'test-documents',
  deps: {},
  provides: {},
  migrations: [
    {
      name: '0005_test_documents',
      up: [
        `create table document (id uuid primary key, path text not null, filename text not null,
          status text not null, title text null, metadata jsonb not null default '{}',
          chunk_count integer not null default 0, source_type text not null default 'upload', source_id text null,
          media_type text not null default 'text/plain')`,
        // With the columns of a chunk's location, which every search item carries.
        `create table chunk (id uuid primary key, document_id uuid not null references document (id) on delete cascade,
          position integer not null, text text not null, metadata jsonb not null default '{}',
          heading_path text[] not null default '{}', page_start integer null, page_end integer null,
          row_start integer null, row_end integer null, char_start integer not null default 0,
          char_end integer not null default 0)`,
      ],
    },
  ],
  init: () => ({}),
});
const everyone = { scopeFor: async () => ({ all: true }) } as unknown as GroupsService;
const lexicalOnly: CurrentModels = { switchedChatBackend: () => null, embedder: () => null };
const feedSource = '5e0c4a4e-0000-4000-8000-0000000000fe';
const ada = { userId: '5e0c4a4e-0000-4000-8000-000000000001', username: 'ada', role: 'viewer' as const };

/** A document as indexing writes it: its chunks, their postings, then its status. */
async function insertDocument(
  db: SqlExecutor,
  name: string,
  texts: string[],
  options: { status?: string; metadata?: Record<string, string>; source?: { type: string; id: string } } = {},
): Promise<string> {
  const id = crypto.randomUUID();
  await db.query(
    `insert into document (id, path, filename, status, title, metadata, source_type, source_id)
     values ($1, $2, $2, 'indexing', $2, $3, $4, $5)`,
    [id, name, JSON.stringify(options.metadata ?? {}), options.source?.type ?? 'upload', options.source?.id ?? null],
  );
  const chunks = analyseChunks(texts.map((text) => ({ id: crypto.randomUUID(), text })));
  for (const [position, chunk] of chunks.entries()) {
    await db.query(
      'insert into chunk (id, document_id, position, text, term_count, language) values ($1, $2, $3, $4, $5, $6)',
      [chunk.id, id, position, texts[position], chunk.length, chunk.language],
    );
  }
  await writePostings(db, id, chunks);
  const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  await db.query('update document set term_count = $2, chunk_count = $3, status = $4 where id = $1', [
    id,
    length,
    chunks.length,
    options.status ?? 'indexed',
  ]);
  return id;
}

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
