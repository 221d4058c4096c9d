export * from './errors.js';
export * from './tokens.js';
export * from './services.js';
export * from './sql-params.js';
export * from './core-tokens.js';
export * from './define-plugin.js';
export * from './define-module.js';
export * from './kinds/connector.js';
export * from './kinds/extractor.js';
export * from './kinds/vector-store.js';
export * from './kinds/embedder.js';
export * from './kinds/llm.js';
export * from './kinds/email.js';
export * from './kinds/license-gate.js';
export * from './kinds/reranker.js';
export * from './preset.js';
export { decodeTextFile, readTextLines } from './text/read-text.js';
export { pageTotal } from './list-total.js';
export { formatTableRow, joinTableCells } from './text/table-row.js';
export {
  OutboundGuard,
  outboundAllowEntrySchema,
  outboundAllowListSchema,
  type OutboundGuardOptions,
} from './net/outbound-guard.js';
export { createGuardedFetch, type GuardedFetch, type GuardedFetchOptions } from './net/guarded-fetch.js';
export { createOutboundPolicy, hostOfUrl, processOutboundSetting, type OutboundPolicy } from './net/outbound-policy.js';
export {
  checkZipLimits,
  ratioGraceBytes,
  zipLimitsSchema,
  type ZipCheck,
  type ZipLimits,
} from './archive/zip-limits.js';
export { defaultMaxTextCharacters, maxTextCharactersSchema, TextBudget } from './text/text-budget.js';
export { startModuleWorker, workerLimits } from './workers/module-worker.js';
