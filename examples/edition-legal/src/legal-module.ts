import { defineModule, planAtLeast, tokens, type Db, type JobsService, type Logger } from '@docqa/plugin-api';
import { analyticsTokens, type AnalyticsCaller, type AnalyticsService } from '@docqa/core/analytics';
import { brandingTokens } from '@docqa/core/branding';
import { licenseTokens, type LicenseService } from '@docqa/core/license';
import { rulesTokens, type RulesService } from '@docqa/core/rules';
import { legalRulePackCron, legalRulePackQueue, legalTokens, type LegalRulePack } from './contract.js';
import { legalRules } from './rule-pack.js';

/** The edition's look until an admin changes it (DocQA's own defaults otherwise). */
const legalBranding = {
  name: 'DocQA Legal',
  colors: { primary: '#1d3557', accent: '#a8892f', background: '#fbfaf7', text: '#1b1b1b' },
  texts: {
    welcome: 'Ask about your contracts, filings and case files.',
    chat_placeholder: 'Ask about a clause, a case or a court…',
    footer: 'Answers quote your documents; they are not legal advice.',
    support_email: '',
  },
};

class RulePack implements LegalRulePack {
  constructor(
    private readonly db: Db,
    private readonly rules: RulesService,
    private readonly analytics: AnalyticsService,
    private readonly license: LicenseService,
    private readonly logger: Logger,
  ) {}

  async applyTo(sourceId: string): Promise<string[]> {
    const present = new Set((await this.rules.list(sourceId)).map((rule) => rule.field_name));
    const added: string[] = [];
    for (const rule of legalRules) {
      if (present.has(rule.field_name)) continue;
      await this.rules.create(sourceId, rule);
      added.push(rule.field_name);
    }
    return added;
  }

  async applyToAll(): Promise<number> {
    // Metadata rules are a PRO feature: the pack follows the plan, as the rules API does.
    if (!planAtLeast(this.license.plan(), 'PRO')) return 0;
    // The sources' table directly: sources have no module contract yet to list them through.
    const { rows } = await this.db.query<{ id: string }>('select id from source order by created_at');
    let changed = 0;
    for (const { id } of rows) {
      const added = await this.applyTo(id);
      if (added.length > 0) {
        changed += 1;
        this.logger.info({ source_id: id, fields: added }, 'legal rule pack added to a source');
      }
    }
    return changed;
  }

  async coverage(sourceId: string, caller: AnalyticsCaller) {
    const fields = new Set(legalRules.map((rule) => rule.field_name));
    const report = await this.analytics.metadataCoverage(sourceId, caller);
    return report.fields.filter((field) => fields.has(field.field_name));
  }
}

/**
 * The legal edition's module: its rule pack on every source, its analytics, and its branding. It uses
 * the standard modules through their contracts only, and changes nothing of theirs.
 */
export const legalModule = defineModule({
  id: 'legal-rule-pack',
  deps: {
    db: tokens.db,
    jobs: tokens.jobs,
    logger: tokens.logger,
    rules: rulesTokens.service,
    analytics: analyticsTokens.service,
    branding: brandingTokens.service,
    license: licenseTokens.service,
  },
  provides: { rulePack: legalTokens.rulePack },
  queues: { [legalRulePackQueue]: { retryLimit: 1, expireInSeconds: 600 } },
  init: ({ deps, logger }) => ({ rulePack: new RulePack(deps.db, deps.rules, deps.analytics, deps.license, logger) }),
  onStart: async ({ deps }) => {
    // Only while no admin has set a branding: theirs always wins.
    if ((await deps.branding.get()).updated_at === null) await deps.branding.put(legalBranding);
  },
  onWorkerStart: async ({ deps, provided }) => {
    await registerWorker(deps.jobs, provided.rulePack);
    await provided.rulePack.applyToAll();
  },
});

async function registerWorker(jobs: JobsService, rulePack: LegalRulePack): Promise<void> {
  await jobs.work(legalRulePackQueue, async () => ({ sources_changed: await rulePack.applyToAll() }));
  await jobs.schedule(legalRulePackQueue, 'new-sources', legalRulePackCron);
}
