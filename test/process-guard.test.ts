import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { baseEnv, serveCli, type ServingCli } from './support/cli.js';
import { databaseEnv } from './support/database.js';
import { useFaultyLicense } from './support/faulty-license.js';
import { ApiClient, until } from './support/api.js';
import { freePort } from './deploy/tools.js';

/** Log lines reach standard output within a second (docs/operations.md, "Load"): waited for a little longer. */
const logged = (output: () => string, line: RegExp) =>
  until(`a log line matching ${line}`, async () => line.test(output()), 2_000, 50);

const errorsCounted = async (api: ApiClient, kind: string): Promise<number> => {
  const text = (await (
    await fetch(`${api.url}/api/metrics`, { headers: { authorization: api.authorization } })
  ).text()) as string;
  return Number(new RegExp(`^docqa_process_errors_total\\{kind="${kind}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
};

describe('the process guard (a real server process, supervised as npm start runs it)', function () {
  this.timeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-e2e-guard-'));
  let database: Awaited<ReturnType<typeof databaseEnv>>;
  let server: ServingCli;
  let faults: ReturnType<typeof useFaultyLicense>;
  let api: ApiClient;

  before(async () => {
    database = await databaseEnv();
    faults = useFaultyLicense(dir);
    // A fixed port, so the restarted process listens where the first did.
    const port = await freePort();
    const env = baseEnv({
      JWT_SECRET_KEY: 'j'.repeat(48),
      MFA_ENCRYPTION_KEY: 'm'.repeat(48),
      DOCQA_DATA_DIR: path.join(dir, 'data'),
      HOST: '127.0.0.1',
      PORT: String(port),
      BACKEND_WORKERS: '1',
      DEFAULT_ADMIN_PASSWORD: 'admin-password-1',
      SHUTDOWN_TIMEOUT_SECONDS: '5',
      ...faults.env,
      ...database.env,
    });
    server = await serveCli({ cwd: dir, env, args: ['--supervise'] });
    api = await ApiClient.login(server.url, 'admin', 'admin-password-1');
  });

  after(async () => {
    expect(await server?.stop()).to.equal(0);
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('logs and counts a rejection nothing handled, and goes on serving', async () => {
    faults.cause('rejection');
    await until(
      'the rejection to be counted',
      async () => (await errorsCounted(api, 'unhandled_rejection')) === 1,
      10_000,
    );
    await logged(server.output, /"msg":"a promise rejected and nothing handled it"/);
    expect(server.output()).to.include('test fault: a rejection nothing handles');
    expect((await fetch(`${server.url}/api/health`)).status).to.equal(200);
  });

  it('closes the connection of a request whose code threw, and serves the others', async () => {
    faults.cause('request-exception');
    // The fault is armed by the gate's timer, then thrown by the next request that reads the licence.
    await until('the fault to be armed', async () => faults.armed(), 10_000);
    await fetch(`${server.url}/api/license`, { headers: { authorization: api.authorization } })
      .then((res) => res.text())
      .catch(() => 'closed');
    await until(
      'the exception to be counted',
      async () => (await errorsCounted(api, 'uncaught_exception')) === 1,
      10_000,
    );
    await logged(server.output, /"msg":"an exception escaped a request; its connection was closed"/);
    expect((await api.call('GET', '/api/docs')).status).to.equal(200);
  });

  it('stops gracefully on an exception outside any request, and the supervisor starts it again', async () => {
    const listening = () => server.output().split('DocQA is listening on').length - 1;
    expect(listening()).to.equal(1);
    faults.cause('exception');
    await until('the server to stop and start again', async () => listening() === 2, 60_000);
    expect(server.output()).to.match(/"msg":"an exception escaped outside any request; stopping gracefully"/);
    expect(server.output()).to.match(/"msg":"kernel stopped"/);
    expect(server.output()).to.match(/server process \d+ exited \(1\); starting another in 1 s/);
    const again = await until(
      'the restarted server to answer',
      async () => (await fetch(`${server.url}/api/health`).catch(() => null))?.status === 200,
      60_000,
    );
    expect(again).to.equal(true);
    api = await ApiClient.login(server.url, 'admin', 'admin-password-1');
    expect(await errorsCounted(api, 'uncaught_exception')).to.equal(0);
  });
});
