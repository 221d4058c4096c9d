import { createToken } from '@docqa/plugin-api';
import type { AnalyticsCaller, MetadataCoverage } from '@docqa/core/analytics';

// What other code (the edition's tests, a partner's own routes) may know of the legal module.

export interface LegalRulePack {
  /** Adds the pack's rules a source lacks (by field name); answers the fields added. */
  applyTo(sourceId: string): Promise<string[]>;
  /** Applies the pack to every connector and integration (PRO and up); answers how many sources gained rules. */
  applyToAll(): Promise<number>;
  /** The metadata coverage of the pack's fields in one source, as the analytics count it. */
  coverage(sourceId: string, caller: AnalyticsCaller): Promise<MetadataCoverage['fields']>;
}

export const legalTokens = {
  rulePack: createToken<LegalRulePack>('legal.rulePack'),
};

/** How often new sources get the pack: a cron job, run once per tick across replicas. */
export const legalRulePackQueue = 'legal_rule_pack';
export const legalRulePackCron = '*/5 * * * *';
