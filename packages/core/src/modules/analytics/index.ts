import { defineModule, tokens } from '@docqa/plugin-api';
import { rulesTokens } from '../rules/contract.js';
import { analyticsTokens } from './contract.js';
import { DatabaseAnalytics } from './analytics-service.js';
import { analyticsMigrations } from './migrations.js';

/**
 * The metadata and index analytics (docs/analytics.md). It reads the rules' table, and its outcome
 * table references it: the rules module is a dependency, so its migrations run first. The feedback
 * report reads the chat module's turns in SQL, as the other reports read the documents' tables.
 */
export const analyticsModule = defineModule({
  id: 'analytics',
  deps: { db: tokens.db, settings: tokens.settings, rules: rulesTokens.service },
  provides: { service: analyticsTokens.service },
  migrations: analyticsMigrations,
  init: ({ deps }) => ({ service: new DatabaseAnalytics(deps.db, deps.settings) }),
});
