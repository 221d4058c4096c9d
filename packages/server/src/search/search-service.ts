import { performance } from 'node:perf_hooks';
import { providerTokens, SqlParams, type Db } from '@docqa/plugin-api';
import type { Kernel } from '@docqa/kernel';
import type { Principal } from '@docqa/core/identity';
import type { GroupsService } from '@docqa/core/groups';
import { languageDetector, lexicalSearch } from './lexical-index.js';
import {
  checkFilterLimits,
  documentConditions,
  isNarrowed,
  metadataCondition,
  type SearchFilters,
  type SearchScope,
} from './filters.js';
import type { CurrentModels } from '@docqa/core/models';

/** Reciprocal rank fusion constant, as in Cormack et al. (2009): damps the weight of the very top ranks. */
const rrfK = 60;
/** Candidates each retriever contributes to fusion: deeper than top_k so agreement lower down counts. */
const fusionDepth = (topK: number) => Math.max(topK * 2, 50);

export interface SearchRequest {
  query: string;
  topK: number;
  filters?: SearchFilters;
}

export interface SearchItem {
  chunk_id: string;
  document_id: string;
  title: string;
  path: string;
  text: string;
  score: number;
  metadata: Record<string, unknown>;
}

export type RetrievalMode = 'lexical' | 'dense' | 'hybrid';

export interface SearchResult {
  items: SearchItem[];
  retrieval_settings: { mode: RetrievalMode; top_k: number; filters: SearchFilters; rewritten_query: string | null };
  timing: { retrieve: number; total: number };
}

interface RankedHit {
  chunkId: string;
  score: number;
}

/** Lexical BM25 always; dense too when an embedder and a vector store are registered; fused by RRF. */
export class SearchService {
  constructor(
    private readonly kernel: Kernel,
    private readonly groups: GroupsService,
    private readonly models: CurrentModels,
  ) {}

  get #db(): Db {
    return this.kernel.db;
  }

  #denseAvailable(): boolean {
    return this.models.embedder() !== null && this.kernel.container.has(providerTokens.vectorStore);
  }

  /** Refuses (422) a filter past FILTER_MAX_KEYS, FILTER_MAX_KEY_LENGTH or FILTER_MAX_VALUE_LENGTH. */
  checkFilters(filters: SearchFilters | undefined): void {
    const v = this.kernel.config.values;
    checkFilterLimits(filters, {
      maxKeys: v.FILTER_MAX_KEYS,
      maxKeyLength: v.FILTER_MAX_KEY_LENGTH,
      maxValueLength: v.FILTER_MAX_VALUE_LENGTH,
    });
  }

  async search(principal: Principal, request: SearchRequest): Promise<SearchResult> {
    const started = performance.now();
    this.checkFilters(request.filters);
    const access = await this.groups.scopeFor(principal);
    const scope: SearchScope = {
      visibleToGroups: access.all ? null : access.groupIds,
      ...(request.filters ? { filters: request.filters } : {}),
    };
    const dense = this.#denseAvailable();
    const depth = dense ? fusionDepth(request.topK) : request.topK;
    const [lexicalHits, denseHits] = await Promise.all([
      lexicalSearch(this.#db, request.query, {
        ...scope,
        topK: depth,
        detector: languageDetector(this.kernel.config.values.INDEX_LANGUAGES),
      }),
      dense ? this.#denseSearch(request.query, scope, depth) : Promise.resolve(null),
    ]);
    const lexical: RankedHit[] = lexicalHits.map((hit) => ({ chunkId: hit.chunkId, score: hit.score }));
    let mode: RetrievalMode = 'lexical';
    let ranked = lexical;
    if (denseHits) {
      // Nothing matched lexically (say, a query of stop words only): the dense ranking answers alone.
      mode = lexical.length > 0 ? 'hybrid' : 'dense';
      ranked = lexical.length > 0 ? reciprocalRankFusion([lexical, denseHits]) : denseHits;
    }
    const top = ranked.slice(0, request.topK);
    const retrieve = performance.now() - started;
    const items = await this.#loadItems(top);
    return {
      items,
      retrieval_settings: { mode, top_k: request.topK, filters: request.filters ?? {}, rewritten_query: null },
      timing: { retrieve: round(retrieve), total: round(performance.now() - started) },
    };
  }

  /**
   * Nearest chunks by embedding. When anything narrows the search (groups, filters) the store is
   * given the allowed documents, so its top k is taken among them; either way every hit is checked
   * again in SQL (status, visibility, filters), since vectors can outlive or precede their chunks.
   */
  async #denseSearch(query: string, scope: SearchScope, depth: number): Promise<RankedHit[]> {
    const embedder = this.models.embedder();
    if (!embedder) return [];
    const store = this.kernel.resolve(providerTokens.vectorStore);
    const [embedding] = await embedder.embed([query]);
    if (!embedding) return [];
    const documentIds = isNarrowed(scope) ? await this.#allowedDocuments(scope) : undefined;
    if (documentIds?.length === 0) return [];
    const hits = await store.query(embedder.space, { embedding, topK: depth, ...(documentIds ? { documentIds } : {}) });
    const allowed = await this.#allowedChunks(
      hits.map((hit) => hit.chunkId),
      scope,
    );
    return hits.filter((hit) => allowed.has(hit.chunkId)).map((hit) => ({ chunkId: hit.chunkId, score: hit.score }));
  }

  async #allowedDocuments(scope: SearchScope): Promise<string[]> {
    const params = new SqlParams();
    const conditions = documentConditions('d', scope, params);
    const metadata = metadataCondition('d', 'c', scope, params);
    if (metadata) conditions.push(`exists (select 1 from chunk c where c.document_id = d.id and ${metadata})`);
    const { rows } = await this.#db.query<{ id: string }>(
      `select d.id from document d where ${conditions.join(' and ')}`,
      params.values,
    );
    return rows.map((row) => row.id);
  }

  async #allowedChunks(chunkIds: string[], scope: SearchScope): Promise<Set<string>> {
    if (chunkIds.length === 0) return new Set();
    const params = new SqlParams();
    const conditions = [`c.id = any(${params.add(chunkIds)}::uuid[])`, ...documentConditions('d', scope, params)];
    const metadata = metadataCondition('d', 'c', scope, params);
    if (metadata) conditions.push(metadata);
    const { rows } = await this.#db.query<{ id: string }>(
      `select c.id from chunk c join document d on d.id = c.document_id where ${conditions.join(' and ')}`,
      params.values,
    );
    return new Set(rows.map((row) => row.id));
  }

  async #loadItems(hits: RankedHit[]): Promise<SearchItem[]> {
    if (hits.length === 0) return [];
    const { rows } = await this.#db.query<{
      id: string;
      document_id: string;
      text: string;
      metadata: Record<string, unknown>;
      title: string | null;
      filename: string;
      path: string;
    }>(
      'select c.id, c.document_id, c.text, c.metadata, d.title, d.filename, d.path from chunk c join document d on d.id = c.document_id where c.id = any($1::uuid[])',
      [hits.map((hit) => hit.chunkId)],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    // A chunk deleted between retrieval and loading is dropped rather than answered half-empty.
    return hits.flatMap((hit) => {
      const row = byId.get(hit.chunkId);
      if (!row) return [];
      return [
        {
          chunk_id: row.id,
          document_id: row.document_id,
          title: row.title ?? row.filename,
          path: row.path,
          text: row.text,
          score: hit.score,
          metadata: row.metadata,
        },
      ];
    });
  }
}

/** RRF: Σ 1 / (k + rank) over the lists a chunk appears in (rank from 1); ties broken by id for stable pages. */
export function reciprocalRankFusion(lists: RankedHit[][]): RankedHit[] {
  const fused = new Map<string, number>();
  for (const list of lists) {
    list.forEach((hit, index) => fused.set(hit.chunkId, (fused.get(hit.chunkId) ?? 0) + 1 / (rrfK + index + 1)));
  }
  return [...fused.entries()]
    .map(([chunkId, score]) => ({ chunkId, score }))
    .sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : 1));
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
