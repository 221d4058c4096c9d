import { expect } from 'chai';
import { defineModule, DocqaError } from '@docqa/plugin-api';
import { provide, startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { licenseTokens, type LicenseService } from '../license/contract.js';
import { everyoneGroupId, groupsTokens, type GroupsService } from './contract.js';
import { groupsModule } from './index.js';

// The users' table as the groups see it; in the product the identity migrations make it.
const usersStandIn = defineModule({
  id: 'test-users',
  deps: {},
  provides: {},
  migrations: [
    { name: '0001_test_app_user', up: ['create table app_user (id uuid primary key, username text not null)'] },
  ],
  init: () => ({}),
});
const ada = { userId: '5e0c4a4e-0000-4000-8000-000000000001', username: 'ada', role: 'viewer' as const };
const missingUser = '5e0c4a4e-0000-4000-8000-0000000000ff';

describe('groups module (without the HTTP server)', function () {
  this.timeout(60_000);
  let kernel: TestKernel;
  let groups: GroupsService;
  let plan: 'FREE' | 'ENTERPRISE' = 'FREE';

  before(async () => {
    const license = { plan: () => plan } as LicenseService;
    kernel = await startTestModules({
      modules: [usersStandIn, groupsModule],
      provide: [provide(licenseTokens.service, license)],
    });
    await kernel.db.query('insert into app_user (id, username) values ($1, $2)', [ada.userId, ada.username]);
    groups = kernel.resolve(groupsTokens.service);
  });
  after(() => kernel.dispose());

  it('below ENTERPRISE shows only everyone, and every caller sees everything', async () => {
    expect((await groups.list(10, 0)).items.map((group) => group.id)).to.deep.equal([everyoneGroupId]);
    expect(await groups.scopeFor(ada)).to.deep.equal({ all: true });
  });

  it('on ENTERPRISE keeps groups, members and grants, and scopes a viewer to their groups', async () => {
    plan = 'ENTERPRISE';
    const legal = await groups.create('Legal', 'contracts');
    const duplicate = await groups.create('legal', '').catch((error: unknown) => error);
    expect(DocqaError.is(duplicate, 'conflict')).to.equal(true);
    const nobody = await groups.addMember(legal.id, missingUser).catch((error: unknown) => error);
    expect(DocqaError.is(nobody, 'not_found')).to.equal(true);
    await groups.addMember(legal.id, ada.userId);
    expect(await groups.scopeFor(ada)).to.deep.equal({ all: false, groupIds: [everyoneGroupId, legal.id] });

    const unknown = await groups.setResourceGroups('document', 'd-1', [missingUser]).catch((error: unknown) => error);
    expect((unknown as DocqaError).errors?.[0]?.field).to.equal('body.group_ids');
    expect(await groups.canSee(ada, 'document', 'd-1')).to.equal(true);
    const other = await groups.create('Finance', '');
    await groups.setResourceGroups('document', 'd-1', [other.id]);
    expect(await groups.canSee(ada, 'document', 'd-1')).to.equal(false);
    await groups.setResourceGroups('document', 'd-1', [other.id, legal.id]);
    expect(await groups.canSee(ada, 'document', 'd-1')).to.equal(true);
    expect(await groups.canSee({ ...ada, role: 'admin' }, 'document', 'd-1')).to.equal(true);
  });

  const scopeOfAda = async () => {
    const scope = await groups.scopeFor(ada);
    return scope.all ? [] : scope.groupIds;
  };

  // scopeFor keeps a user's groups for a few seconds (memberships.ts): every change through the service counts at once.
  it("a viewer's scope follows membership changes at once: added, removed, group deleted", async () => {
    plan = 'ENTERPRISE';
    const audit = await groups.create('Audit', '');
    expect(await scopeOfAda()).to.not.include(audit.id);
    await groups.addMember(audit.id, ada.userId);
    expect(await scopeOfAda()).to.include(audit.id);
    await groups.removeMember(audit.id, ada.userId);
    expect(await scopeOfAda()).to.not.include(audit.id);
    await groups.addMember(audit.id, ada.userId);
    expect(await scopeOfAda()).to.include(audit.id);
    await groups.delete(audit.id);
    expect(await scopeOfAda()).to.not.include(audit.id);
  });

  it("another process's membership change (in the database alone) counts within the propagation delay", async function () {
    this.timeout(20_000);
    plan = 'ENTERPRISE';
    const ops = await groups.create('Operations', '');
    expect(await scopeOfAda()).to.not.include(ops.id);
    await kernel.db.query('insert into user_group_member (group_id, user_id) values ($1, $2)', [ops.id, ada.userId]);
    const started = Date.now();
    while (!(await scopeOfAda()).includes(ops.id)) await new Promise((r) => setTimeout(r, 200));
    expect(Date.now() - started).to.be.below(6500);
  });
});
