import { performance } from 'node:perf_hooks';
import { SqlParams, type SqlExecutor, type VectorStoreProvider } from '@docqa/plugin-api';
import type { LanguageDetector } from '../../index.js';
import type { Principal } from '../identity/contract.js';
import type { GroupsService } from '../groups/contract.js';
import type { CurrentModels } from '../models/contract.js';
import type {
  PassageSearch,
  RetrievalMode,
  SearchItem,
  SearchRequest,
  SearchResult,
  SearchService,
} from './contract.js';
import { reciprocalRankFusion, type RankedHit } from './fusion.js';
import { lexicalSearch } from './lexical-index.js';
import { sourceLocation, type LocatedChunk } from './location.js';
import { rerankDepth, rerankItems, type RerankSettings } from './rerank.js';
import {
  checkFilterLimits,
  documentConditions,
  isNarrowed,
  metadataCondition,
  type FilterLimits,
  type SearchFilters,
  type SearchScope,
} from './filters.js';

/** Candidates each retriever contributes to fusion: deeper than top_k so agreement lower down counts. */
const fusionDepth = (topK: number) => Math.max(topK * 2, 50);

export interface SearchDeps {
  /** Reads only (tokens.readDb): a read replica when one is healthy, else the primary. */
  db: SqlExecutor;
  groups: GroupsService;
  models: CurrentModels;
  vectorStore: VectorStoreProvider | undefined;
  /** FILTER_MAX_KEYS, FILTER_MAX_KEY_LENGTH, FILTER_MAX_VALUE_LENGTH. */
  filterLimits: FilterLimits;
  /** The detector of INDEX_LANGUAGES, which indexing uses too. */
  detector: LanguageDetector;
  /** Set when RAG_RERANK_ENABLED loaded a reranker: the fused top candidates are reordered by it. */
  rerank?: RerankSettings;
}

/** Lexical BM25 always; dense too when an embedder and a vector store are registered; fused by RRF. */
export class HybridSearchService implements SearchService {
  constructor(private readonly deps: SearchDeps) {}

  get #db(): SqlExecutor {
    return this.deps.db;
  }

  #denseAvailable(): boolean {
    return this.deps.models.embedder() !== null && this.deps.vectorStore !== undefined;
  }

  checkFilters(filters: SearchFilters | undefined): void {
    checkFilterLimits(filters, this.deps.filterLimits);
  }

  async search(principal: Principal, request: SearchRequest): Promise<SearchResult> {
    return (await this.searchPassages(principal, request)).result;
  }

  async searchPassages(principal: Principal, request: SearchRequest): Promise<PassageSearch> {
    const started = performance.now();
    this.checkFilters(request.filters);
    const access = await this.deps.groups.scopeFor(principal);
    const scope: SearchScope = {
      visibleToGroups: access.all ? null : access.groupIds,
      ...(request.filters ? { filters: request.filters } : {}),
    };
    const dense = this.#denseAvailable();
    const { rerank } = this.deps;
    // The reranker needs its candidates from fusion, so retrieval goes at least that deep.
    const wanted = rerank ? rerankDepth(rerank, request.topK) : request.topK;
    const depth = dense ? Math.max(fusionDepth(request.topK), wanted) : wanted;
    const [lexicalHits, denseHits] = await Promise.all([
      lexicalSearch(this.#db, request.query, {
        ...scope,
        topK: depth,
        detector: this.deps.detector,
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
    const settings = { mode, top_k: request.topK, filters: request.filters ?? {}, rewritten_query: null };
    const retrieve = round(performance.now() - started);
    if (!rerank) {
      const { items, languages } = await this.#loadItems(ranked.slice(0, request.topK));
      const timing = { retrieve, total: round(performance.now() - started) };
      return { result: { items, retrieval_settings: settings, timing }, languages };
    }
    // The reranker reads the candidates' text, so they are loaded before the cut to top_k.
    const candidates = await this.#loadItems(ranked.slice(0, wanted));
    const reranked = await rerankItems(rerank, request.query, candidates.items);
    const result: SearchResult = {
      items: reranked.items.slice(0, request.topK),
      retrieval_settings: { ...settings, rerank: reranked.outcome },
      timing: { retrieve, rerank: round(reranked.ms), total: round(performance.now() - started) },
    };
    return { result, languages: candidates.languages };
  }

  /**
   * Nearest chunks by embedding. When anything narrows the search (groups, filters) the store is
   * given the allowed documents, so its top k is taken among them; either way every hit is checked
   * again in SQL (status, visibility, filters), since vectors can outlive or precede their chunks.
   */
  async #denseSearch(query: string, scope: SearchScope, depth: number): Promise<RankedHit[]> {
    const embedder = this.deps.models.embedder();
    const store = this.deps.vectorStore;
    if (!embedder || !store) return [];
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

  async #loadItems(hits: RankedHit[]): Promise<{ items: SearchItem[]; languages: Map<string, string | null> }> {
    const languages = new Map<string, string | null>();
    if (hits.length === 0) return { items: [], languages };
    // Each chunk's document by its primary key (the lateral limit keeps the planner from flattening
    // it): a plain join was planned as a hash join over every document, 39 pages read per search
    // at 1,000 documents and more with each one added, to look up ten of them.
    const { rows } = await this.#db.query<
      LocatedChunk & {
        id: string;
        document_id: string;
        text: string;
        metadata: Record<string, unknown>;
        title: string | null;
        filename: string;
        path: string;
        media_type: string;
        language: string | null;
      }
    >(
      `select c.id, c.document_id, c.text, c.metadata, c.heading_path, c.page_start, c.page_end, c.row_start,
         c.row_end, c.char_start, c.char_end, c.language, d.title, d.filename, d.path, d.media_type
       from chunk c
       cross join lateral (
         select d.title, d.filename, d.path, d.media_type from document d where d.id = c.document_id limit 1
       ) d
       where c.id = any($1::uuid[])`,
      [hits.map((hit) => hit.chunkId)],
      { prepared: true },
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    // A chunk deleted between retrieval and loading is dropped rather than answered half-empty.
    const items = hits.flatMap((hit) => {
      const row = byId.get(hit.chunkId);
      if (!row) return [];
      languages.set(row.id, row.language);
      return [
        {
          chunk_id: row.id,
          document_id: row.document_id,
          title: row.title ?? row.filename,
          path: row.path,
          text: row.text,
          score: hit.score,
          metadata: row.metadata,
          location: sourceLocation(row, row.media_type),
        },
      ];
    });
    return { items, languages };
  }
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
