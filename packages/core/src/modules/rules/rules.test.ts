import { expect } from 'chai';
import { defineModule, DocqaError } from '@docqa/plugin-api';
import { startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { metadataRefreshQueue, rulesTokens, type RulesService } from './contract.js';
import { rulesModule } from './index.js';

// The sources' table as the rules see it; in the product the sources' own migrations make it.
const sourcesStandIn = defineModule({
  id: 'test-sources',
  deps: {},
  provides: {},
  migrations: [{ name: '0007_test_source', up: ['create table source (id uuid primary key, kind text not null)'] }],
  init: () => ({}),
});
const sourceId = '3c1d9a52-0000-4000-8000-000000000001';
const rule = { field_name: 'department', pattern: 'Department: (\\w+)', scope: 'full', level: 'document', priority: 5 };

describe('rules module (without the HTTP server)', function () {
  this.timeout(60_000);
  let kernel: TestKernel;
  let rules: RulesService;

  before(async () => {
    kernel = await startTestModules({ modules: [sourcesStandIn, rulesModule] });
    await kernel.db.query("insert into source (id, kind) values ($1, 'integration')", [sourceId]);
    rules = kernel.resolve(rulesTokens.service);
  });
  after(() => kernel.dispose());

  it('stores a rule, refuses an invalid one naming the field, and lists them in evaluation order', async () => {
    const created = await rules.create(sourceId, rule);
    expect(created).to.include({ field_name: 'department', source_type: 'integration', priority: 5 });
    const invalid = await rules.create(sourceId, { ...rule, pattern: 'no group' }).catch((error: unknown) => error);
    expect(DocqaError.is(invalid, 'validation_failed')).to.equal(true);
    expect((invalid as DocqaError).errors?.[0]?.field).to.equal('body.pattern');
    await rules.create(sourceId, { ...rule, field_name: 'team', priority: 9 });
    expect((await rules.list(sourceId)).map((stored) => stored.field_name)).to.deep.equal(['team', 'department']);
    const second = await rules.page(sourceId, { limit: 1, offset: 1 });
    expect([second.total, second.items.map((stored) => stored.field_name)]).to.deep.equal([2, ['department']]);
    expect(await rules.page(sourceId, { limit: 10, offset: 5 })).to.deep.equal({ items: [], total: 2 });
    const unknown = await rules.list('3c1d9a52-0000-4000-8000-0000000000ff').catch((error: unknown) => error);
    expect(DocqaError.is(unknown, 'not_found')).to.equal(true);
  });

  it('dry-runs a rule on sample text and queues a refresh job for the source', async () => {
    const result = await rules.test(sourceId, {
      rule,
      sample_text: 'Department: Legal\n\nSecond paragraph.',
      filename: 'memo.txt',
    });
    expect(result.document).to.deep.equal({ department: 'Legal' });
    expect(result.error).to.equal(null);
    // A boundary rule's preview splits chunks where it matches, as indexing would.
    const sample = 'Section 1 Scope. The parties agree.\n\nSection 2 Term. One year.';
    const boundary = {
      field_name: 'section',
      pattern: 'Section (\\d+)',
      scope: 'full',
      level: 'chunk',
      chunk_boundary: true,
    };
    const plain = await rules.test(sourceId, {
      rule: { ...boundary, chunk_boundary: false },
      sample_text: sample,
      filename: 'a.txt',
    });
    const split = await rules.test(sourceId, { rule: boundary, sample_text: sample, filename: 'a.txt' });
    expect(plain.chunks).to.have.lengthOf(1);
    expect(split.chunks.map((chunk) => chunk.values.section)).to.deep.equal(['1', '2']);
    const jobId = await rules.requestRefresh(sourceId);
    const job = await kernel.jobs.get<{ sourceId: string; sourceType: string }>(metadataRefreshQueue, jobId);
    expect(job?.data).to.deep.include({ sourceId, sourceType: 'integration' });
  });
});
