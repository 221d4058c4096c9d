import { expect } from 'chai';
import { defineModule, DocqaError } from '@docqa/plugin-api';
import { startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { schedulesTokens, type SchedulesService } from './contract.js';
import { schedulesModule } from './index.js';

// The sources' table as the schedules see it; in the product the sources' own migrations make it.
const sourcesStandIn = defineModule({
  id: 'test-sources',
  deps: {},
  provides: {},
  migrations: [{ name: '0007_test_source', up: ['create table source (id uuid primary key, kind text not null)'] }],
  init: () => ({}),
});
const connectorId = '0b5a7a60-0000-4000-8000-000000000001';

describe('schedules module (without the HTTP server)', function () {
  this.timeout(60_000);
  let kernel: TestKernel;
  let schedules: SchedulesService;

  before(async () => {
    kernel = await startTestModules({ modules: [sourcesStandIn, schedulesModule] });
    await kernel.db.query("insert into source (id, kind) values ($1, 'connector')", [connectorId]);
    schedules = kernel.resolve(schedulesTokens.service);
  });
  after(() => kernel.dispose());

  it('refuses a cron expression it cannot run and a source that does not exist, naming the field', async () => {
    const badCron = await schedules
      .create({ source_type: 'connector', source_id: connectorId, cron: '61 * * * *', enabled: true })
      .catch((error: unknown) => error);
    expect(DocqaError.is(badCron, 'validation_failed')).to.equal(true);
    expect((badCron as DocqaError).errors?.[0]?.field).to.equal('body.cron');
    const noSource = await schedules
      .create({ source_type: 'integration', source_id: connectorId, cron: '0 * * * *', enabled: true })
      .catch((error: unknown) => error);
    expect((noSource as DocqaError).errors?.[0]?.field).to.equal('body.source_id');
  });

  it('creates, disables, reconciles and deletes a schedule', async () => {
    const created = await schedules.create({
      source_type: 'connector',
      source_id: connectorId,
      cron: '0 3 * * *',
      enabled: true,
    });
    expect(created).to.include({ source_id: connectorId, cron: '0 3 * * *', enabled: true, last_run: null });
    expect(new Date(created.next_run!).getUTCHours()).to.equal(3);
    const disabled = await schedules.update(created.id, { enabled: false });
    expect(disabled.next_run).to.equal(null);
    expect((await schedules.list(10, 0)).total).to.equal(1);
    expect(await schedules.reconcile()).to.equal(1);
    await schedules.delete(created.id);
    const gone = await schedules.get(created.id).catch((error: unknown) => error);
    expect(DocqaError.is(gone, 'not_found')).to.equal(true);
  });
});
