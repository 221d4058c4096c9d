import { defineModule, tokens } from '@docqa/plugin-api';
import { metadataRefreshQueue, metadataRefreshQueueOptions, rulesTokens } from './contract.js';
import { ruleMigrations } from './migrations.js';
import { StoredRules } from './rule-service.js';

/**
 * Metadata rules per source (docs/documents-and-sources.md). Its table references the sources'
 * table, whose migrations are the application's and run first.
 */
export const rulesModule = defineModule({
  id: 'rules',
  deps: { db: tokens.db, jobs: tokens.jobs, config: tokens.config },
  provides: { service: rulesTokens.service },
  migrations: ruleMigrations,
  queues: { [metadataRefreshQueue]: metadataRefreshQueueOptions },
  init: ({ deps, onStop }) => {
    const rules = new StoredRules(deps.db, deps.jobs, {
      baseMs: Number(deps.config.get('RULE_CPU_BUDGET_MS')),
      msPerMillionCharacters: Number(deps.config.get('RULE_CPU_MS_PER_MILLION_CHARACTERS')),
    });
    onStop(() => rules.close());
    return { service: rules };
  },
});
