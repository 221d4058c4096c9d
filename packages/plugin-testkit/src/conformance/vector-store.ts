import { expect } from 'chai';
import type { EmbeddingSpace, ErrorCode, VectorHit, VectorRecord, VectorStoreProvider } from '@docqa/plugin-api';

export interface VectorStoreConformanceSetup {
  /** Starts one store for the whole suite; every test writes its own embedding spaces. */
  start(): Promise<{ store: VectorStoreProvider; dispose(): Promise<void> }>;
}

/**
 * The behaviour every vector store plugin owes the rest of DocQA. Tests share one store, so each
 * works in spaces (and documents) no other test touches, and counts totals as differences.
 */
export function describeVectorStoreConformance(name: string, setup: VectorStoreConformanceSetup): void {
  describe(`${name}: vector store conformance`, function () {
    let store: VectorStoreProvider;
    let dispose: (() => Promise<void>) | undefined;

    before(async function () {
      this.timeout(120_000);
      const started = await setup.start();
      store = started.store;
      dispose = started.dispose;
    });

    after(async function () {
      this.timeout(60_000);
      await dispose?.();
    });

    it('answers the nearest chunks first, with cosine scores in [-1, 1]', async () => {
      const space = testSpace('nearest', 3);
      await store.upsert(space, [
        record('opposite', 'doc-n', [-1, 0, 0]),
        record('exact', 'doc-n', [2, 0, 0]),
        record('orthogonal-y', 'doc-n', [0, 3, 0]),
        record('close', 'doc-n', [0.9, 0.1, 0]),
        record('orthogonal-z', 'doc-n', [0, 0, 0.5]),
      ]);

      const hits = await store.query(space, { embedding: new Float32Array([1, 0, 0]), topK: 5 });
      expect(hits.map((hit) => hit.chunkId)).to.have.lengthOf(5);
      expect(hits[0]?.chunkId).to.equal('exact');
      expect(hits[0]?.score).to.be.closeTo(1, 1e-4);
      expect(hits[1]?.chunkId).to.equal('close');
      expect(hits[1]?.score).to.be.closeTo(0.9 / Math.hypot(0.9, 0.1), 1e-4);
      expect(hits[4]?.chunkId).to.equal('opposite');
      expect(hits[4]?.score).to.be.closeTo(-1, 1e-4);
      expectNearestFirst(hits);
      for (const hit of hits) {
        expect(hit.score).to.be.within(-1, 1);
        expect(hit.documentId).to.equal('doc-n');
      }

      const topTwo = await store.query(space, { embedding: [1, 0, 0], topK: 2 });
      expect(topTwo.map((hit) => hit.chunkId)).to.deep.equal(['exact', 'close']);
    });

    it('replaces the vector and document of a chunk written again', async () => {
      const space = testSpace('replace', 3);
      await store.upsert(space, [record('moving', 'doc-r1', [1, 0, 0]), record('staying', 'doc-r1', [0, 1, 0])]);
      await store.upsert(space, [record('moving', 'doc-r2', [0, 0, 1])]);

      expect(await store.count(space)).to.equal(2);
      const [nearNew] = await store.query(space, { embedding: [0, 0, 1], topK: 1 });
      expect(nearNew).to.include({ chunkId: 'moving', documentId: 'doc-r2' });
      expect(nearNew?.score).to.be.closeTo(1, 1e-4);
      const nearOld = await store.query(space, { embedding: [1, 0, 0], topK: 2 });
      const moving = nearOld.find((hit) => hit.chunkId === 'moving');
      expect(moving?.score, 'the old vector must be gone').to.be.closeTo(0, 1e-4);
    });

    it('keeps spaces of different models or dimensions apart, even for the same chunk ids', async () => {
      const small = testSpace('apart', 3);
      const wide = testSpace('apart', 4);
      const otherModel = testSpace('apart-other', 3);
      await store.upsert(small, [record('shared-chunk', 'doc-a', [1, 0, 0]), record('small-only', 'doc-a', [0, 1, 0])]);
      await store.upsert(wide, [record('wide-only', 'doc-a', [1, 0, 0, 0])]);
      await store.upsert(otherModel, [record('shared-chunk', 'doc-a', [0, 1, 0])]);

      const inSmall = await store.query(small, { embedding: [1, 0, 0], topK: 10 });
      expect(inSmall.map((hit) => hit.chunkId).sort()).to.deep.equal(['shared-chunk', 'small-only']);
      expect(inSmall[0]).to.include({ chunkId: 'shared-chunk' });
      expect(inSmall[0]?.score).to.be.closeTo(1, 1e-4);

      const inOther = await store.query(otherModel, { embedding: [1, 0, 0], topK: 10 });
      expect(inOther.map((hit) => hit.chunkId)).to.deep.equal(['shared-chunk']);
      expect(inOther[0]?.score, 'the other model keeps its own vector for the chunk').to.be.closeTo(0, 1e-4);

      const inWide = await store.query(wide, { embedding: [1, 0, 0, 0], topK: 10 });
      expect(inWide.map((hit) => hit.chunkId)).to.deep.equal(['wide-only']);
      expect(await store.count(small)).to.equal(2);
      expect(await store.count(wide)).to.equal(1);
      expect(await store.count(otherModel)).to.equal(1);
    });

    it('rejects embeddings that do not fit their space, and writes nothing of such a call', async () => {
      const space = testSpace('invalid', 3);
      await expectDocqaError(() => store.upsert(space, [record('short', 'doc-i', [1, 0])]), 'validation_failed');
      await expectDocqaError(() => store.upsert(space, [record('long', 'doc-i', [1, 0, 0, 0])]), 'validation_failed');
      await expectDocqaError(
        () => store.upsert(space, [record('nan', 'doc-i', [1, Number.NaN, 0])]),
        'validation_failed',
      );
      await expectDocqaError(
        () => store.upsert(space, [record('infinite', 'doc-i', [1, Number.POSITIVE_INFINITY, 0])]),
        'validation_failed',
      );
      await expectDocqaError(
        () => store.upsert(space, [record('fine', 'doc-i', [1, 0, 0]), record('bad', 'doc-i', [1, 0])]),
        'validation_failed',
      );
      expect(await store.count(space), 'a rejected call must not write its valid records either').to.equal(0);

      await store.upsert(space, [record('fine', 'doc-i', [1, 0, 0])]);
      await expectDocqaError(() => store.query(space, { embedding: [1, 0], topK: 1 }), 'validation_failed');
      await expectDocqaError(() => store.query(space, { embedding: [1, Number.NaN, 0], topK: 1 }), 'validation_failed');
    });

    it('restricts a query to the given documents even when others are nearer', async function () {
      this.timeout(60_000);
      const space = testSpace('filter', 16);
      const random = seededRandom(7);
      const centres = Array.from({ length: 20 }, () => gaussianVector(random, 16));
      // Each document is a cluster of more chunks than an approximate index looks at by default,
      // so a store that filters after its search (instead of during it) comes back short.
      const clustered = centres.flatMap((centre, d) =>
        Array.from({ length: 60 }, (_, i) =>
          record(`doc-${d}-chunk-${i}`, `doc-filter-${d}`, jitter(random, centre, 0.3)),
        ),
      );
      const far = Array.from({ length: 3 }, (_, i) =>
        record(`far-${i}`, 'doc-far', jitter(random, negate(centres[0]!), 0.5)),
      );
      await store.upsert(space, [...clustered, ...far]);
      const target = jitter(random, centres[0]!, 0.3);

      const onlyFar = await store.query(space, { embedding: target, topK: 5, documentIds: ['doc-far'] });
      const farByDistance = exactRanking(far, target).map((hit) => hit.chunkId);
      expect(onlyFar.map((hit) => hit.chunkId)).to.deep.equal(farByDistance);
      expectNearestFirst(onlyFar);

      const allButNearest = centres.map((_, d) => `doc-filter-${d}`).filter((id) => id !== 'doc-filter-0');
      const broad = await store.query(space, { embedding: target, topK: 10, documentIds: allButNearest });
      expect(broad, 'a filter that allows enough chunks still fills topK').to.have.lengthOf(10);
      expect(broad.every((hit) => hit.documentId !== 'doc-filter-0')).to.equal(true);
      expectNearestFirst(broad);
      const allowed = clustered.filter((r) => r.documentId !== 'doc-filter-0');
      const exactTen = new Set(
        exactRanking(allowed, target)
          .slice(0, 10)
          .map((hit) => hit.chunkId),
      );
      expect(broad.filter((hit) => exactTen.has(hit.chunkId)).length).to.be.at.least(9);

      const twoDocuments = await store.query(space, {
        embedding: target,
        topK: 100,
        documentIds: ['doc-far', 'doc-filter-1', 'doc-unknown'],
      });
      expect(twoDocuments).to.have.lengthOf(63);
      expect(new Set(twoDocuments.map((hit) => hit.documentId))).to.deep.equal(new Set(['doc-far', 'doc-filter-1']));

      expect(await store.query(space, { embedding: target, topK: 5, documentIds: ['doc-unknown'] })).to.deep.equal([]);
      expect(
        await store.query(space, { embedding: target, topK: 5, documentIds: [] }),
        'an empty filter allows no document',
      ).to.deep.equal([]);
    });

    it('deletes documents in every space and answers how many vectors went', async () => {
      const first = testSpace('delete', 3);
      const second = testSpace('delete-other', 3);
      await store.upsert(first, [
        record('gone-1', 'doc-gone', [1, 0, 0]),
        record('gone-2', 'doc-gone', [1, 1, 0]),
        record('kept', 'doc-kept', [1, 0, 1]),
      ]);
      await store.upsert(second, [record('gone-3', 'doc-gone', [0, 1, 0])]);

      expect(await store.deleteDocuments(['doc-gone', 'doc-never-stored'])).to.equal(3);
      expect(await store.count(first)).to.equal(1);
      expect(await store.count(second)).to.equal(0);
      const left = await store.query(first, { embedding: [1, 0, 0], topK: 10 });
      expect(left.map((hit) => hit.chunkId)).to.deep.equal(['kept']);
      expect(await store.deleteDocuments(['doc-gone'])).to.equal(0);
      expect(await store.deleteDocuments([])).to.equal(0);
    });

    it('counts vectors per space and in total', async () => {
      const before = await store.count();
      const pairs = testSpace('count', 2);
      const fives = testSpace('count', 5);
      await store.upsert(
        pairs,
        Array.from({ length: 4 }, (_, i) => record(`p-${i}`, 'doc-c', [1, i + 1])),
      );
      await store.upsert(
        fives,
        Array.from({ length: 3 }, (_, i) => record(`f-${i}`, 'doc-c', [1, 0, 0, 0, i + 1])),
      );

      expect(await store.count(pairs)).to.equal(4);
      expect(await store.count(fives)).to.equal(3);
      expect(await store.count(testSpace('count-never-written', 2))).to.equal(0);
      expect(await store.count()).to.equal(before + 7);
    });

    it('lists each space that holds vectors, with its count', async () => {
      const listedA = testSpace('listed-a', 3);
      const listedB = testSpace('listed-b', 6);
      await store.upsert(listedA, [record('a-1', 'doc-l', [1, 0, 0]), record('a-2', 'doc-l', [0, 1, 0])]);
      await store.upsert(listedB, [record('b-1', 'doc-l', [1, 0, 0, 0, 0, 0])]);

      const spaces = await store.spaces();
      const ours = spaces
        .filter((space) => space.model.startsWith('conformance-listed-'))
        .map(({ model, dimensions, count }) => ({ model, dimensions, count }))
        .sort((a, b) => a.model.localeCompare(b.model));
      expect(ours).to.deep.equal([
        { ...listedA, count: 2 },
        { ...listedB, count: 1 },
      ]);
      const keys = spaces.map((space) => `${space.model}@${space.dimensions}`);
      expect(new Set(keys).size, 'each space once').to.equal(keys.length);
      const total = spaces.reduce((sum, space) => sum + space.count, 0);
      expect(total).to.equal(await store.count());
    });

    it('drops a space without touching the others, and can fill it again', async () => {
      const dropped = testSpace('dropped', 3);
      const kept = testSpace('dropped-neighbour', 3);
      await store.upsert(dropped, [record('d-1', 'doc-d', [1, 0, 0]), record('d-2', 'doc-d', [0, 1, 0])]);
      await store.upsert(kept, [record('k-1', 'doc-d', [1, 0, 0])]);

      await store.dropSpace(dropped);
      expect(await store.count(dropped)).to.equal(0);
      expect(await store.query(dropped, { embedding: [1, 0, 0], topK: 5 })).to.deep.equal([]);
      const spaces = await store.spaces();
      expect(spaces.some((space) => space.model === dropped.model && space.dimensions === dropped.dimensions)).to.equal(
        false,
      );
      expect(await store.count(kept)).to.equal(1);

      await store.upsert(dropped, [record('d-3', 'doc-d', [0, 0, 1])]);
      const again = await store.query(dropped, { embedding: [0, 0, 1], topK: 5 });
      expect(again.map((hit) => hit.chunkId)).to.deep.equal(['d-3']);
      await store.dropSpace(testSpace('dropped-never-written', 3));
    });

    it('answers [] for a space that holds nothing', async () => {
      expect(await store.query(testSpace('never-written', 3), { embedding: [1, 0, 0], topK: 5 })).to.deep.equal([]);
    });

    it('finds at least 90% of the exact top 10 among 2,000 clustered vectors', async function () {
      this.timeout(120_000);
      const space = testSpace('recall', 32);
      const corpus = clusteredCorpus({ seed: 42, clusters: 20, perCluster: 100, dimensions: 32, spread: 0.35 });
      // Two calls: the second half goes into a space that already holds vectors (and any index).
      await store.upsert(space, corpus.records.slice(0, 1000));
      await store.upsert(space, corpus.records.slice(1000));
      expect(await store.count(space)).to.equal(2000);

      let recallSum = 0;
      for (const query of corpus.queries) {
        const exact = new Set(
          exactRanking(corpus.records, query)
            .slice(0, 10)
            .map((hit) => hit.chunkId),
        );
        const hits = await store.query(space, { embedding: query, topK: 10 });
        expect(hits.length).to.be.at.most(10);
        expectNearestFirst(hits);
        const found = hits.filter((hit) => exact.has(hit.chunkId)).length;
        recallSum += found / 10;
      }
      const recall = recallSum / corpus.queries.length;
      expect(recall, `average recall@10 was ${recall.toFixed(3)}`).to.be.at.least(0.9);
    });
  });
}

function testSpace(label: string, dimensions: number): EmbeddingSpace {
  return { model: `conformance-${label}`, dimensions };
}

function record(chunkId: string, documentId: string, embedding: number[]): VectorRecord & { embedding: number[] } {
  return { chunkId, documentId, embedding };
}

async function expectDocqaError(work: () => Promise<unknown>, code: ErrorCode): Promise<void> {
  let caught: unknown = undefined;
  try {
    await work();
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected a DocqaError '${code}'`).to.be.instanceOf(Error);
  // By name and code rather than instanceof: a plugin may bundle its own copy of plugin-api.
  expect((caught as Error).name).to.equal('DocqaError');
  expect((caught as { code?: unknown }).code).to.equal(code);
}

function expectNearestFirst(hits: VectorHit[]): void {
  for (let i = 1; i < hits.length; i++) {
    expect(hits[i]!.score, `hit ${i} scores higher than hit ${i - 1}`).to.be.at.most(hits[i - 1]!.score);
  }
}

// xorshift32: tiny and deterministic, so every store is measured on the same corpus.
function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

/** Standard normal values from uniform ones (Box–Muller). */
function gaussianVector(random: () => number, dimensions: number): number[] {
  const values: number[] = [];
  while (values.length < dimensions) {
    const u = 1 - random();
    const v = random();
    const radius = Math.sqrt(-2 * Math.log(u));
    values.push(radius * Math.cos(2 * Math.PI * v), radius * Math.sin(2 * Math.PI * v));
  }
  return values.slice(0, dimensions);
}

function jitter(random: () => number, center: readonly number[], spread: number): number[] {
  const noise = gaussianVector(random, center.length);
  return center.map((value, i) => value + spread * noise[i]!);
}

function negate(vector: readonly number[]): number[] {
  return vector.map((value) => -value);
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    // Stores keep single precision; comparing the same rounded values keeps ties honest.
    const x = Math.fround(a[i]!);
    const y = Math.fround(b[i]!);
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return dot / Math.sqrt(normA * normB);
}

/** Brute force: every record scored against the query, best first. */
function exactRanking(
  records: ReadonlyArray<VectorRecord & { embedding: number[] }>,
  query: number[],
): Array<{ chunkId: string; score: number }> {
  return records
    .map((r) => ({ chunkId: r.chunkId, score: cosine(query, r.embedding) }))
    .sort((a, b) => b.score - a.score);
}

interface CorpusShape {
  seed: number;
  clusters: number;
  perCluster: number;
  dimensions: number;
  /** Standard deviation of points around their cluster's centre (centres are standard normal). */
  spread: number;
}

/** Gaussian clusters, plus one query drawn near each cluster's centre. */
function clusteredCorpus(shape: CorpusShape): {
  records: Array<VectorRecord & { embedding: number[] }>;
  queries: number[][];
} {
  const random = seededRandom(shape.seed);
  const centres = Array.from({ length: shape.clusters }, () => gaussianVector(random, shape.dimensions));
  const records: Array<VectorRecord & { embedding: number[] }> = [];
  for (let i = 0; i < shape.clusters * shape.perCluster; i++) {
    const cluster = i % shape.clusters;
    records.push(record(`recall-${i}`, `doc-recall-${cluster}`, jitter(random, centres[cluster]!, shape.spread)));
  }
  const queries = centres.map((centre) => jitter(random, centre, shape.spread));
  return { records, queries };
}
