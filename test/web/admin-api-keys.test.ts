import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ApiClient } from '../support/api.js';
import { baseEnv, serveCli, type ServingCli } from '../support/cli.js';
import { chromiumPath, ensureWebBuilt, launchChromium, screenshot } from './support/browser.js';
import { serverDatabase } from './support/server.js';

const adminPassword = 'admin-password-1';

/**
 * An admin lists and revokes another user's API keys on the Users screen: a real `docqa serve`
 * (embedded database or TEST_DATABASE_URL) and Debian's chromium, with screenshots.
 */
describe('web UI: an admin manages the API keys of any user (real browser)', function () {
  this.timeout(300_000);
  const executable = chromiumPath();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-e2e-web-keys-'));
  let database: Awaited<ReturnType<typeof serverDatabase>> | undefined;
  let server: ServingCli | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const keys: Record<string, string> = {};
  const errors: string[] = [];

  const status = async (key: string) =>
    (await fetch(`${server!.url}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } })).status;

  before(async function () {
    if (!executable) {
      console.log(
        '      SKIPPED: no chromium at /usr/bin/chromium (or CHROMIUM_PATH); this test needs a real browser.',
      );
      this.skip();
    }
    await ensureWebBuilt();
    database = await serverDatabase();
    const env = {
      JWT_SECRET_KEY: 'j'.repeat(48),
      MFA_ENCRYPTION_KEY: 'm'.repeat(48),
      DOCQA_DATA_DIR: path.join(dir, 'data'),
      HOST: '127.0.0.1',
      PORT: '0',
      DEFAULT_ADMIN_PASSWORD: adminPassword,
      SHUTDOWN_TIMEOUT_SECONDS: '5',
    };
    server = await serveCli({ cwd: dir, env: baseEnv({ ...env, ...database.env }), timeoutMs: 180_000 });
    const admin = await ApiClient.login(server.url, 'admin', adminPassword);
    const kim = { username: 'kim', password: 'kim-password-1', role: 'editor' };
    expect((await admin.call('POST', '/api/auth/users', kim)).status).to.equal(201);
    const session = await ApiClient.login(server.url, kim.username, kim.password);
    for (const [name, scopes] of [
      ['backup script', ['read']],
      ['laptop', ['read', 'write']],
    ] as const) {
      const created = await session.call('POST', '/api/auth/api-keys', { name, scopes });
      expect(created.status).to.equal(201);
      keys[name] = created.body.key as string;
    }
    // Not for another user's keys without the admin role.
    const own = (await session.call('GET', '/api/auth/me')).body.id as string;
    expect((await session.call('GET', `/api/auth/users/${own}/api-keys`)).status).to.equal(403);
    browser = await launchChromium(executable!);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => errors.push(`page error: ${error.stack ?? error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/Failed to load resource/.test(message.text()))
        errors.push(`console: ${message.text()}`);
    });
  });

  after(async () => {
    await browser?.close();
    await server?.stop('SIGTERM');
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page) await screenshot(page, 'failed-admin-api-keys');
  });

  it("lists a user's keys on the Users screen and revokes one; the other keeps working", async () => {
    await page.goto(`${server!.url}/login`);
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill(adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByRole('button', { name: 'API keys of kim' }).click();
    const panel = page.getByRole('region', { name: 'API keys of kim' });
    const laptop = panel.locator('tr[data-key-name="laptop"]');
    await laptop.waitFor();
    const backup = panel.locator('tr[data-key-name="backup script"]');
    expect(await backup.innerText())
      .to.include(keys['backup script']!.slice(0, 14))
      .and.not.include(keys['backup script']!.slice(14));
    expect(await laptop.innerText()).to.include('read, write');
    expect(await panel.locator('caption').innerText()).to.equal('2 keys, not revoked');
    await screenshot(page, 'admin-user-api-keys');
    expect([await status(keys.laptop!), await status(keys['backup script']!)]).to.deep.equal([200, 200]);

    await laptop.getByRole('button', { name: 'Revoke laptop of kim' }).click();
    await laptop.getByRole('button', { name: 'Confirm' }).click();
    await panel.getByText('Revoked laptop of kim.').waitFor();
    await laptop.waitFor({ state: 'detached' });
    await screenshot(page, 'admin-user-api-keys-revoked');
    expect([await status(keys.laptop!), await status(keys['backup script']!)]).to.deep.equal([401, 200]);

    await page.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'API keys of admin' }).click();
    await page.getByRole('region', { name: 'API keys of admin' }).getByText('admin has no API keys.').waitFor();
  });

  it('logged no error in the browser', () => {
    expect(errors).to.deep.equal([]);
  });
});
