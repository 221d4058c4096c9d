import { defineModule, optional, providerTokens, tokens } from '@docqa/plugin-api';
import { groupsTokens } from '../groups/contract.js';
import { modelsTokens } from '../models/contract.js';
import { searchTokens } from './contract.js';
import { languageDetector } from './lexical-index.js';
import {
  lexicalReindexQueue,
  queueLexicalReindexIfStale,
  reindexLexical,
  type LexicalReindexData,
} from './lexical-reindex.js';
import { searchMigrations } from './migrations.js';
import { buildTermWindowsIfDue, termWindowsQueue, termWindowsSchedule } from './term-window-build.js';
import { HybridSearchService } from './search-service.js';

/**
 * Search (docs/search.md): BM25 postings in PostgreSQL with per-language analysis, dense retrieval
 * through the vector store when an embedder is in effect, fused by RRF, filtered by the caller's
 * groups. Its tables extend the documents' chunk and document tables, whose migrations are the
 * application's and run first. In processes that run jobs it re-analyses the postings when the
 * analysis changed (an upgrade), search answering meanwhile.
 */
export const searchModule = defineModule({
  id: 'search',
  deps: {
    db: tokens.db,
    // Search's reads may lag the primary a little (docs/operations.md, Read replicas); the caller's
    // groups (scopeFor) are read on the primary, so a grant made a moment ago counts.
    readDb: tokens.readDb,
    config: tokens.config,
    jobs: tokens.jobs,
    groups: groupsTokens.service,
    models: modelsTokens.current,
    vectorStore: optional(providerTokens.vectorStore),
    // Registered only when RAG_RERANK_ENABLED (the standard preset loads no reranker otherwise).
    reranker: optional(providerTokens.reranker),
    logger: tokens.logger,
  },
  provides: { service: searchTokens.service },
  migrations: searchMigrations,
  queues: {
    [lexicalReindexQueue]: { retryLimit: 1, retryDelaySeconds: 30, expireInSeconds: 24 * 3600, heartbeatSeconds: 30 },
    [termWindowsQueue]: { retryLimit: 2, retryDelaySeconds: 60, expireInSeconds: 6 * 3600 },
  },
  init: ({ deps }) => {
    const limit = (name: string) => Number(deps.config.get(name));
    return {
      service: new HybridSearchService({
        db: deps.readDb,
        groups: deps.groups,
        models: deps.models,
        vectorStore: deps.vectorStore,
        filterLimits: {
          maxKeys: limit('FILTER_MAX_KEYS'),
          maxKeyLength: limit('FILTER_MAX_KEY_LENGTH'),
          maxValueLength: limit('FILTER_MAX_VALUE_LENGTH'),
        },
        detector: indexLanguageDetector(deps.config.get('INDEX_LANGUAGES')),
        ...(deps.reranker && deps.config.get('RAG_RERANK_ENABLED') === true
          ? {
              rerank: {
                reranker: deps.reranker,
                candidates: limit('RAG_RERANK_CANDIDATES'),
                logger: deps.logger.child({ module: 'search' }),
              },
            }
          : {}),
      }),
    };
  },
  onWorkerStart: async ({ deps }) => {
    const detector = indexLanguageDetector(deps.config.get('INDEX_LANGUAGES'));
    await deps.jobs.work<LexicalReindexData>(lexicalReindexQueue, (job) => reindexLexical(deps.db, detector, job));
    // Postings of an older analysis (an upgrade that changed it): re-analysed by a job, search serving meanwhile.
    await queueLexicalReindexIfStale(deps.db, deps.jobs);
    // Frequent terms' windows (term-window-build.ts), rebuilt off the ingest path once the tail has grown.
    await deps.jobs.work(termWindowsQueue, () => buildTermWindowsIfDue(deps.db));
    await deps.jobs.schedule(termWindowsQueue, termWindowsSchedule.key, termWindowsSchedule.cron);
  },
});

function indexLanguageDetector(setting: unknown) {
  return languageDetector(Array.isArray(setting) ? (setting as string[]) : []);
}
