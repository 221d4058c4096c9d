import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { createTemporaryDatabase } from '@docqa/kernel/testing';
import { ApiClient, until } from './support/api.js';
import { adminPassword, Deployment, describeOnPostgres } from './support/deployment.js';

const run = promisify(execFile);

/**
 * The backup and restore of docs/operations.md, for real: pg_dump in custom format, pg_restore into
 * an empty database, the same data directory, and a server started on the restored database.
 */
describeOnPostgres('backup with pg_dump and restore with pg_restore (docs/operations.md)', function () {
  this.timeout(300_000);
  let deployment: Deployment;
  let restored: { url: string; drop(): Promise<void> } | null = null;

  before(async () => {
    deployment = await Deployment.create('backup');
  });
  after(async () => {
    await deployment?.dispose();
    await restored?.drop();
  });

  it('brings back users, documents with their index, and an audit log whose hash chain still verifies', async () => {
    const original = await deployment.start();
    const admin = await ApiClient.login(original.url, 'admin', adminPassword);
    const user = await admin.call('POST', '/api/auth/users', {
      username: 'restored-reader',
      password: 'reader-password-1',
      role: 'viewer',
    });
    expect(user.status, JSON.stringify(user.body)).to.equal(201);
    const [document] = await admin.upload([
      {
        name: 'lighthouse.txt',
        text: `The lighthouse keeper logs the quasarflux reading every night at nine. ${'Calm sea and clear sky. '.repeat(8)}`,
      },
    ]);
    await until(
      'the document to be indexed',
      async () => (await admin.call('GET', `/api/docs?status=indexed`)).body.total === 1,
    );
    const before = await admin.call('GET', '/api/audit?limit=500');
    expect(before.body.total, 'audit entries to carry over').to.be.greaterThan(0);
    await original.stop('SIGTERM');

    const dump = path.join(deployment.dir, 'docqa.dump');
    await run('pg_dump', ['--format=custom', `--file=${dump}`, `--dbname=${deployment.databaseUrl}`]);
    restored = await createTemporaryDatabase(process.env.TEST_DATABASE_URL as string);
    await run('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${restored.url}`, dump]);

    const again = await deployment.start([], { DATABASE_URL: restored.url });
    const reader = await ApiClient.login(again.url, 'restored-reader', 'reader-password-1');
    const listed = await reader.call('GET', '/api/docs');
    expect(listed.body.items.map((item: { id: string }) => item.id)).to.deep.equal([document!.id]);
    const search = await reader.call('POST', '/api/search', { query: 'quasarflux reading', top_k: 3 });
    expect(search.status, JSON.stringify(search.body)).to.equal(200);
    expect(search.body.items[0].document_id).to.equal(document!.id);

    const adminAgain = await ApiClient.login(again.url, 'admin', adminPassword);
    const verified = await adminAgain.call('GET', '/api/audit/verify');
    expect(verified.body.valid, JSON.stringify(verified.body)).to.equal(true);
    const after = await adminAgain.call('GET', '/api/audit?limit=500');
    const ids = (entries: Array<{ id: string }>) => new Set(entries.map((entry) => entry.id));
    expect(
      [...ids(before.body.items)].every((id) => ids(after.body.items).has(id)),
      'every entry from before the backup',
    ).to.equal(true);
  });
});
