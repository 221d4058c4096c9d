import { createToken } from '@docqa/plugin-api';
import type { Principal } from '../identity/contract.js';
import type { SearchFilters } from './filters.js';
import type { SourceLocation } from './location.js';

// What other code may know of the search module: the search service and its shapes, and the
// lexical index's building blocks: indexing writes postings inside its own transactions, and the
// benches and the whole-server tests measure and check BM25 with the same functions search uses.

export type { SearchFilters } from './filters.js';
export {
  analyseChunk,
  analyseChunks,
  bm25,
  corpusLanguages,
  idf,
  languageDetector,
  lexicalSearch,
  queryTerms,
  writePostings,
  type AnalysedChunk,
} from './lexical-index.js';
export {
  lexicalReindexQueue,
  queueLexicalReindexIfStale,
  storedAnalyzerVersion,
  type LexicalReindexData,
} from './lexical-reindex.js';
export { buildTermWindows, termWindowsQueue, termWindowsSchedule, type TermWindowsBuilt } from './term-window-build.js';
export { reciprocalRankFusion } from './fusion.js';
export { sheetOf, sourceLocation, xlsxMediaType, type LocatedChunk, type SourceLocation } from './location.js';

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
  /** Where the passage is in its document: pages, headings, sheet and rows, offsets in its text. */
  location: SourceLocation;
}

export type RetrievalMode = 'lexical' | 'dense' | 'hybrid';

/**
 * `applied`: the cross-encoder reordered the fused candidates (item scores are its scores);
 * `failed`: it was asked and failed, so the fused order stands. Absent when reranking is off.
 */
export type RerankOutcome = 'applied' | 'failed';

export interface SearchResult {
  items: SearchItem[];
  retrieval_settings: {
    mode: RetrievalMode;
    top_k: number;
    filters: SearchFilters;
    rewritten_query: string | null;
    rerank?: RerankOutcome;
  };
  /** Milliseconds; `rerank` (after `retrieve`, within `total`) only when RAG_RERANK_ENABLED. */
  timing: { retrieve: number; rerank?: number; total: number };
}

/**
 * A search for answering: the result as the API shows it and, beside it rather than in its items
 * (so no answer can show it by mistake), the language each item's chunk was analysed in.
 */
export interface PassageSearch {
  result: SearchResult;
  /** By chunk id: ISO 639-1, or null when indexing was not told. */
  languages: ReadonlyMap<string, string | null>;
}

/** Hybrid retrieval over what the caller may read (spec 2.4). */
export interface SearchService {
  /** Refuses (422) a filter past FILTER_MAX_KEYS, FILTER_MAX_KEY_LENGTH or FILTER_MAX_VALUE_LENGTH. */
  checkFilters(filters: SearchFilters | undefined): void;
  search(principal: Principal, request: SearchRequest): Promise<SearchResult>;
  /** The same search, with each passage's stored language for chat's answerer (no detection again). */
  searchPassages(principal: Principal, request: SearchRequest): Promise<PassageSearch>;
}

export const searchTokens = {
  service: createToken<SearchService>('search.service'),
};
