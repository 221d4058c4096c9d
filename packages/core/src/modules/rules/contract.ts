import { createToken, type QueueOptions } from '@docqa/plugin-api';
import type { MetadataRule, RuleRunner } from '../../index.js';

// What other code may know of the rules module: its token, its service, the shapes it speaks in,
// and the queue of the metadata refresh job (worked where the indexed chunks are).

/** A stored rule as the API answers it. */
export interface RuleView {
  id: string;
  field_name: string;
  pattern: string;
  query_pattern: string | null;
  scope: MetadataRule['scope'];
  level: MetadataRule['level'];
  chunk_boundary: boolean;
  priority: number;
  source_id: string;
  source_type: 'connector' | 'integration';
  created_at: string;
  updated_at: string;
}

/** A dry run of one rule on sample text: what the document and each chunk would get. */
export interface RuleTestResult {
  document: Record<string, string>;
  chunks: Array<{ text: string; values: Record<string, string>; origin: Record<string, string> }>;
  boundaries: unknown[];
  error: string | null;
}

export const metadataRefreshQueue = 'metadata_refresh';
export const metadataRefreshQueueOptions: QueueOptions = {
  retryLimit: 1,
  expireInSeconds: 6 * 3600,
  heartbeatSeconds: 30,
};

export interface MetadataRefreshData {
  sourceId: string;
  sourceType: 'connector' | 'integration';
  kind: 'metadata_refresh';
}

export interface RulesService {
  /** Runs rule patterns in worker threads, each within a CPU-time budget (a pattern that backtracks is stopped). */
  readonly runner: RuleRunner;
  /** `not_found` for an unknown source; the source's rules in evaluation order. */
  list(sourceId: string): Promise<RuleView[]>;
  /** One page of `list`; `limit` null for all of them. */
  page(sourceId: string, page: { limit: number | null; offset: number }): Promise<{ items: RuleView[]; total: number }>;
  /** 422 naming the body field for an invalid rule. */
  create(sourceId: string, input: unknown): Promise<RuleView>;
  update(sourceId: string, ruleId: string, input: unknown): Promise<RuleView>;
  delete(sourceId: string, ruleId: string): Promise<void>;
  test(sourceId: string, input: { rule: unknown; sample_text: string; filename: string }): Promise<RuleTestResult>;
  /** The stored rules of a source, as the rule engine takes them. */
  rulesOf(sourceId: string): Promise<MetadataRule[]>;
  /** Every stored rule of every source: query classification uses them all. */
  allRules(): Promise<MetadataRule[]>;
  /** Queues the re-application of a source's rules to its indexed chunks; answers the job's id. */
  requestRefresh(sourceId: string): Promise<string>;
}

export const rulesTokens = {
  service: createToken<RulesService>('rules.service'),
};
