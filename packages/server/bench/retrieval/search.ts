/** Search latency through POST /api/search, and HNSW recall against an exact scan of the same vectors. */
import { performance } from 'node:perf_hooks';
import type { Db, EmbeddingSpace, VectorStoreProvider } from '@docqa/plugin-api';
import { queryTerms } from '@docqa/core/search';
import { spread, type Spread } from './percentiles.js';

export interface SearchRun {
  /** Queries measured (after the warm-up). */
  queries: number;
  /** The server's own timing.retrieve: access scope, BM25 and/or embedding + vector search, fusion. */
  retrieve: Spread;
  /** The client's view: request sent → JSON parsed (adds HTTP, auth, loading the chunks' text). */
  roundTrip: Spread;
  modes: Record<string, number>;
}

/** Sequential searches (top_k 10); the first `warmUp` are not counted. */
export async function searchLatencies(
  baseUrl: string,
  token: string,
  queries: readonly string[],
  warmUp: number,
): Promise<SearchRun> {
  const retrieve: number[] = [];
  const roundTrip: number[] = [];
  const modes: Record<string, number> = {};
  for (const [index, query] of queries.entries()) {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/api/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, top_k: 10 }),
    });
    const body = (await res.json()) as { timing: { retrieve: number }; retrieval_settings: { mode: string } };
    const elapsed = performance.now() - started;
    if (res.status !== 200) throw new Error(`search answered ${res.status}: ${JSON.stringify(body)}`);
    if (index < warmUp) continue;
    retrieve.push(body.timing.retrieve);
    roundTrip.push(elapsed);
    modes[body.retrieval_settings.mode] = (modes[body.retrieval_settings.mode] ?? 0) + 1;
  }
  return { queries: retrieve.length, retrieve: spread(retrieve), roundTrip: spread(roundTrip), modes };
}

/** Postings BM25 scores for each query (the sum of its terms' document frequencies): what lexical latency follows. */
export async function queryPostings(db: Db, queries: readonly string[]): Promise<Spread> {
  const perQuery = queries.map((query) => [...queryTerms(query).keys()]);
  const { rows } = await db.query<{ term: string; df: string }>(
    'select term, count(*) as df from chunk_term where term = any($1::text[]) group by term',
    [[...new Set(perQuery.flat())]],
  );
  const df = new Map(rows.map((row) => [row.term, Number(row.df)]));
  return spread(perQuery.map((terms) => terms.reduce((sum, term) => sum + (df.get(term) ?? 0), 0)));
}

export interface RecallRun {
  queries: number;
  recallAt10: number;
  hnsw: Spread;
  exact: Spread;
}

/** Warm-up queries whose times are not counted (their recall is). */
const timingWarmUp = 10;

/**
 * recall@10 of the store's answer (HNSW, its own ef_search) against the true 10 nearest by cosine
 * distance: the store's query with index scans switched off, so PostgreSQL scans every vector.
 */
export async function denseRecall(
  db: Db,
  store: VectorStoreProvider,
  space: EmbeddingSpace,
  queryVectors: readonly number[][],
): Promise<RecallRun> {
  const hnswTimes: number[] = [];
  const exactTimes: number[] = [];
  let found = 0;
  const distance = `embedding::vector(${space.dimensions}) <=> $1::vector(${space.dimensions})`;
  for (const [index, vector] of queryVectors.entries()) {
    let started = performance.now();
    const approximate = await store.query(space, { embedding: vector, topK: 10 });
    const hnswTime = performance.now() - started;
    started = performance.now();
    const exact = await db.transaction(async (tx) => {
      await tx.query('set local enable_indexscan = off');
      const { rows } = await tx.query<{ chunk_id: string }>(
        `select chunk_id from vector_embedding where space = $2 order by ${distance} limit 10`,
        [`[${vector.join(',')}]`, `${space.model}@${space.dimensions}`],
      );
      return new Set(rows.map((row) => row.chunk_id));
    });
    const exactTime = performance.now() - started;
    if (exact.size !== 10) throw new Error(`exact search found ${exact.size} vectors instead of 10`);
    found += approximate.filter((hit) => exact.has(hit.chunkId)).length;
    if (index >= timingWarmUp) {
      hnswTimes.push(hnswTime);
      exactTimes.push(exactTime);
    }
  }
  return {
    queries: queryVectors.length,
    recallAt10: found / (10 * queryVectors.length),
    hnsw: spread(hnswTimes),
    exact: spread(exactTimes),
  };
}
