import { expect } from 'chai';
import { providerTokens, type EmbeddingSpace, type VectorRecord, type VectorStoreProvider } from '@docqa/plugin-api';
import { describeVectorStoreConformance, startTestKernel, type TestKernel } from '@docqa/plugin-testkit';
import vectorstorePgvectorPlugin from './index.js';
import { hnswIndexName } from './hnsw-index.js';
import { nearestSql } from './sql.js';

describeVectorStoreConformance('vectorstore-pgvector', {
  async start() {
    const kernel = await startTestKernel({ plugins: [{ plugin: vectorstorePgvectorPlugin }] });
    return { store: kernel.resolve(providerTokens.vectorStore), dispose: () => kernel.dispose() };
  },
});

describe('vectorstore-pgvector', function () {
  let kernel: TestKernel;
  let store: VectorStoreProvider;

  before(async function () {
    this.timeout(120_000);
    kernel = await startTestKernel({
      plugins: [{ plugin: vectorstorePgvectorPlugin, options: { m: 8, efConstruction: 32, batchSize: 7 } }],
    });
    store = kernel.resolve(providerTokens.vectorStore);
  });

  after(async function () {
    this.timeout(60_000);
    await kernel?.dispose();
  });

  async function indexDefinition(space: EmbeddingSpace): Promise<string | undefined> {
    const { rows } = await kernel.db.query<{ indexdef: string }>(
      'select indexdef from pg_indexes where indexname = $1',
      [hnswIndexName(space)],
    );
    return rows[0]?.indexdef;
  }

  it('creates the HNSW index of a space, with the configured build options, on its first vectors', async () => {
    const space = { model: 'plugin-index', dimensions: 4 };
    expect(await indexDefinition(space)).to.equal(undefined);
    await store.upsert(space, [{ chunkId: 'c1', documentId: 'd1', embedding: [1, 0, 0, 0] }]);

    const definition = await indexDefinition(space);
    expect(definition).to.match(/using hnsw \(\(\(embedding\)::vector\(4\)\) vector_cosine_ops\)/i);
    expect(definition).to.include("m='8'").and.to.include("ef_construction='32'");
    expect(definition).to.include("WHERE (space = 'plugin-index@4'::text)");
  });

  it('answers nearest queries through that index', async () => {
    const space = { model: 'plugin-plan', dimensions: 4 };
    await store.upsert(space, [{ chunkId: 'c1', documentId: 'd1', embedding: [1, 0, 0, 0] }]);
    // With sequential scans priced out, the index is chosen exactly when the query can use it: the
    // query's expression and space must match the index's.
    const plan = await kernel.db.transaction(async (tx) => {
      await tx.query('set local enable_seqscan = off');
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`explain ${nearestSql(4, false)}`, [
        '[1,0,0,0]',
        'plugin-plan@4',
        5,
      ]);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).to.include(`Index Scan using ${hnswIndexName(space)}`);
  });

  it('stores models whose names look like SQL, quoting them in the index', async () => {
    const space = { model: "it's'); drop table vector_embedding; --", dimensions: 3 };
    await store.upsert(space, [{ chunkId: 'q1', documentId: 'd-quote', embedding: [0, 1, 0] }]);
    expect(await indexDefinition(space)).to.include(`'it''s''); drop table vector_embedding; --@3'::text`);
    const hits = await store.query(space, { embedding: [0, 1, 0], topK: 1 });
    expect(hits.map((hit) => hit.chunkId)).to.deep.equal(['q1']);
    expect(await store.spaces()).to.deep.include({ model: space.model, dimensions: 3, count: 1 });
  });

  it('writes across batch boundaries and keeps the last of a chunk listed twice', async () => {
    const space = { model: 'plugin-batches', dimensions: 2 };
    const records = Array.from({ length: 20 }, (_, i) => ({
      chunkId: `b${i}`,
      documentId: 'd-batch',
      embedding: [1, i + 1],
    }));
    records.push({ chunkId: 'b0', documentId: 'd-batch-last', embedding: [-1, 0] });
    await store.upsert(space, records);
    expect(await store.count(space)).to.equal(20);
    const [nearest] = await store.query(space, { embedding: [-1, 0], topK: 1 });
    expect(nearest).to.include({ chunkId: 'b0', documentId: 'd-batch-last' });
  });

  it('writes batchSize vectors a statement on a server, and 4 on the embedded database, whose statements hold the event loop', async () => {
    // A statement-level trigger records how many rows each insert statement brought.
    await kernel.db.query(`create table statement_rows (n integer)`);
    await kernel.db.query(`create function note_statement_rows() returns trigger language plpgsql as $$
      begin insert into statement_rows select count(*) from inserted; return null; end $$`);
    await kernel.db.query(
      `create trigger note_statement_rows after insert on vector_embedding referencing new table as inserted for each statement execute function note_statement_rows()`,
    );
    try {
      const space = { model: 'plugin-statements', dimensions: 2 };
      await store.upsert(
        space,
        Array.from({ length: 20 }, (_, i) => ({ chunkId: `s${i}`, documentId: 'd-statements', embedding: [1, i + 1] })),
      );
      const { rows } = await kernel.db.query<{ n: number }>('select n from statement_rows');
      // batchSize is 7 here.
      expect(rows.map((row) => row.n)).to.deep.equal(kernel.db.mode === 'embedded' ? [4, 4, 4, 4, 4] : [7, 7, 6]);
    } finally {
      await kernel.db.query('drop trigger note_statement_rows on vector_embedding');
      await kernel.db.query('drop function note_statement_rows()');
      await kernel.db.query('drop table statement_rows');
    }
  });

  it('drops the index together with the space', async () => {
    const space = { model: 'plugin-drop', dimensions: 3 };
    await store.upsert(space, [{ chunkId: 'x', documentId: 'd-drop', embedding: [1, 1, 1] }]);
    expect(await indexDefinition(space)).to.be.a('string');
    await store.dropSpace(space);
    expect(await indexDefinition(space)).to.equal(undefined);
  });

  it('searches spaces too wide for HNSW exactly, without an index', async () => {
    const space = { model: 'plugin-wide', dimensions: 2001 };
    const unit = (at: number) => Array.from({ length: 2001 }, (_, i) => (i === at ? 1 : 0));
    await store.upsert(space, [
      { chunkId: 'w0', documentId: 'd-wide', embedding: unit(0) },
      { chunkId: 'w1', documentId: 'd-wide', embedding: unit(2000) },
    ]);
    expect(await indexDefinition(space)).to.equal(undefined);
    const hits = await store.query(space, { embedding: unit(2000), topK: 2 });
    expect(hits.map((hit) => hit.chunkId)).to.deep.equal(['w1', 'w0']);
  });

  describe('on a space large enough for its index to pay', () => {
    const space = { model: 'plugin-large', dimensions: 32 };
    const { records, centres } = clusteredRecords(space.dimensions);
    const queryVector = centres[0]!.map((value) => value + 0.01);
    const allButNearest = centres.map((_, d) => `doc-large-${d}`).filter((id) => id !== 'doc-large-0');

    before(async function () {
      this.timeout(60_000);
      await store.upsert(space, records);
      // A server's autovacuum analyzes in its own time; the embedded database relies on the plugin.
      if (kernel.db.mode === 'server') await kernel.db.query('analyze vector_embedding');
    });

    async function plan(documentIds?: string[]): Promise<string> {
      const params: unknown[] = [`[${queryVector.join(',')}]`, 'plugin-large@32', 10];
      if (documentIds) params.push(documentIds);
      const { rows } = await kernel.db.query<{ 'QUERY PLAN': string }>(
        `explain ${nearestSql(32, documentIds !== undefined)}`,
        params,
      );
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    }

    it('keeps the planner statistics of the embedded database fresh', async function () {
      if (kernel.db.mode !== 'embedded') this.skip();
      const { rows } = await kernel.db.query<{ rows: number }>(
        `select reltuples::float8 as rows from pg_class where oid = 'vector_embedding'::regclass`,
      );
      expect(Number(rows[0]?.rows)).to.be.at.least(records.length);
    });

    it('samples few rows when it analyzes the embedded database (the sample stays in its memory for good)', async function () {
      if (kernel.db.mode !== 'embedded') this.skip();
      // A statistics target of 10 keeps at most 10 common values and 11 histogram bounds per column.
      const { rows } = await kernel.db.query<{ common: number | null; bounds: number | null }>(
        `select array_length(most_common_vals::text::text[], 1) as common, array_length(histogram_bounds::text::text[], 1) as bounds
         from pg_stats where tablename = 'vector_embedding' and attname = 'document_id'`,
      );
      expect(rows).to.have.lengthOf(1);
      expect((rows[0]!.common ?? 0) + (rows[0]!.bounds ?? 0)).to.be.greaterThan(0);
      expect(rows[0]!.common ?? 0).to.be.at.most(10);
      expect(rows[0]!.bounds ?? 0).to.be.at.most(11);
    });

    it('searches through the HNSW index', async () => {
      expect(await plan()).to.include(`Index Scan using ${hnswIndexName(space)}`);
    });

    it('fills topK through the index when a broad document filter excludes the nearest chunks', async () => {
      // The index is what makes this hard: its first candidates all belong to the excluded document.
      expect(await plan(allButNearest)).to.include(`Index Scan using ${hnswIndexName(space)}`);
      const hits = await store.query(space, { embedding: queryVector, topK: 10, documentIds: allButNearest });
      expect(hits).to.have.lengthOf(10);
      expect(hits.every((hit) => hit.documentId !== 'doc-large-0')).to.equal(true);
    });

    it('answers more results than HNSW searches for at once (ef_search stops at 1000)', async () => {
      const hits = await store.query(space, { embedding: queryVector, topK: 1500 });
      expect(hits).to.have.lengthOf(1500);
      expect(new Set(hits.map((hit) => hit.chunkId)).size).to.equal(1500);
      for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).to.be.at.most(hits[i - 1]!.score);
    });
  });

  it('refuses zero vectors and a topK that is not a positive integer', async () => {
    const space = { model: 'plugin-zero', dimensions: 2 };
    await expectValidationFailure(() =>
      store.upsert(space, [{ chunkId: 'z', documentId: 'd-zero', embedding: [0, 0] }]),
    );
    await expectValidationFailure(() => store.query(space, { embedding: [1, 0], topK: 0 }));
    await expectValidationFailure(() => store.query(space, { embedding: [1, 0], topK: 1.5 }));
    await expectValidationFailure(() => store.upsert({ model: '', dimensions: 2 }, []));
  });
});

describe('vectorstore-pgvector options', () => {
  async function startFailure(options: unknown): Promise<Error> {
    try {
      const kernel = await startTestKernel({ plugins: [{ plugin: vectorstorePgvectorPlugin, options }] });
      await kernel.dispose();
    } catch (error) {
      return error as Error;
    }
    throw new Error(`the kernel started with options ${JSON.stringify(options)}`);
  }

  it('refuses an option out of bounds, naming the plugin instance', async () => {
    const error = await startFailure({ m: 0 });
    expect(error.name).to.equal('DocqaError');
    expect(error.message).to.include("plugin instance 'vectorstore-pgvector'").and.to.include("option 'm'");
  });

  it('refuses unknown options and an efConstruction below twice m', async () => {
    expect((await startFailure({ efSerach: 100 })).message).to.include('efSerach');
    expect((await startFailure({ m: 32, efConstruction: 40 })).message).to.include("option 'efConstruction'");
  });
});

async function expectValidationFailure(work: () => Promise<unknown>): Promise<void> {
  const error = await work().then(
    () => undefined,
    (caught: unknown) => caught as { name?: string; code?: string },
  );
  expect(error, 'expected a validation failure').to.include({ name: 'DocqaError', code: 'validation_failed' });
}

/** 20 documents of 100 chunks, each document a tight cluster around its own centre. */
function clusteredRecords(dimensions: number): { records: VectorRecord[]; centres: number[][] } {
  let state = 12345;
  const random = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000 - 0.5;
  };
  const centres = Array.from({ length: 20 }, () => Array.from({ length: dimensions }, random));
  const records = centres.flatMap((centre, d) =>
    Array.from({ length: 100 }, (_, i) => ({
      chunkId: `large-${d}-${i}`,
      documentId: `doc-large-${d}`,
      embedding: centre.map((value) => value + 0.05 * random()),
    })),
  );
  return { records, centres };
}
