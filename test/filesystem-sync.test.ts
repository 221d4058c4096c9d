import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ApiClient, type Json } from './support/api.js';
import { adminPassword, Deployment, describeOnPostgres, writeTextFiles } from './support/deployment.js';

const files = 10_000;

/** Every file below `dir`. */
function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

const seconds = (job: Json) => (new Date(job.finished_at).getTime() - new Date(job.started_at).getTime()) / 1000;

describeOnPostgres(
  'a filesystem connector over 10,000 files, synced by the server (end to end)',
  function () {
    this.timeout(900_000);
    let deployment: Deployment;
    let client: ApiClient;

    before(async () => {
      deployment = await Deployment.create('fs10k');
      client = await ApiClient.login((await deployment.start()).url, 'admin', adminPassword);
    });
    after(async () => deployment?.dispose());

    it('a second sync with nothing changed reads no file and takes under a tenth of the first', async () => {
      const dir = path.join(deployment.docs, 'tree');
      writeTextFiles(dir, files);
      const paths = listFiles(dir);
      // Whole seconds, so that rewriting the access time below leaves the modification time exact.
      const modified = Math.floor(Date.now() / 1000) - 3600;
      for (const file of paths) fs.utimesSync(file, modified, modified);

      const connector = await client.createConnector('Ten thousand', dir);
      const first = await client.waitForJob(await client.scan(connector), 600_000);
      expect(first.status, JSON.stringify(first)).to.equal('succeeded');
      expect(first.result).to.deep.include({ upserted: files, skipped: 0 });

      // Reading a file moves its access time forward again (relatime: it is older than the last
      // change now), so an access time still at this mark afterwards means the file was not read.
      const untouched = modified - 600;
      for (const file of paths) fs.utimesSync(file, untouched, modified);
      const second = await client.waitForJob(await client.scan(connector), 600_000);
      console.log(
        `      first sync of ${files} files: ${seconds(first).toFixed(1)} s; second, unchanged: ${seconds(second).toFixed(2)} s`,
      );
      expect(second.status, JSON.stringify(second)).to.equal('succeeded');
      expect(second.result).to.deep.include({ upserted: 0, unchanged: 0, moved: 0, deleted: 0, skipped: 0 });
      const read = paths.filter((file) => fs.statSync(file).atimeMs !== untouched * 1000);
      expect(read.length, `files read by the second sync, such as ${read[0]}`).to.equal(0);
      expect(seconds(second)).to.be.below(seconds(first) / 10);
    });
  },
  'set TEST_DATABASE_URL: indexing 10,000 documents takes minutes on PostgreSQL and far longer on the embedded database',
);
