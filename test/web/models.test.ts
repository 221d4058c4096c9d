import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { createModelFixtures, type ModelFixtures } from '../../packages/server/src/routes/models.test-support.js';
import { ApiClient } from '../support/api.js';
import { baseEnv, serveCli, type ServingCli } from '../support/cli.js';
import { chromiumPath, ensureWebBuilt, launchChromium, screenshot } from './support/browser.js';
import { serverDatabase } from './support/server.js';

const adminPassword = 'admin-password-1';

/**
 * The Models screen pulls a catalogue model with its progress and switches to it; and, on the free
 * plan this server runs, the access screen explains its ENTERPRISE gate. A real `docqa serve`, generated
 * GGUF files served slowly from loopback (the plugin testkit's model file server), Debian's chromium.
 */
describe('web UI: model management, and the access grants gate below ENTERPRISE (real browser)', function () {
  this.timeout(300_000);
  const executable = chromiumPath();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-e2e-web-models-'));
  let database: Awaited<ReturnType<typeof serverDatabase>> | undefined;
  let fixtures: ModelFixtures | undefined;
  let server: ServingCli | undefined;
  let browser: Browser | undefined;
  let admin: ApiClient;
  let page: Page;
  const errors: string[] = [];

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

  before(async function () {
    if (!executable) {
      console.log('      SKIPPED: no chromium at /usr/bin/chromium (or CHROMIUM_PATH); these tests need a browser.');
      this.skip();
    }
    await ensureWebBuilt();
    database = await serverDatabase();
    fixtures = await createModelFixtures();
    const env = {
      JWT_SECRET_KEY: 'j'.repeat(48),
      MFA_ENCRYPTION_KEY: 'm'.repeat(48),
      DOCQA_DATA_DIR: path.join(dir, 'data'),
      HOST: '127.0.0.1',
      PORT: '0',
      DEFAULT_ADMIN_PASSWORD: adminPassword,
      SHUTDOWN_TIMEOUT_SECONDS: '5',
      MODELS_DIR: path.join(dir, 'models'),
      MODELS_CATALOGUE: fixtures.cataloguePath,
      // The model files are served from loopback, which only OUTBOUND_ALLOW opens to the server.
      OUTBOUND_ALLOW: '127.0.0.1',
    };
    server = await serveCli({ cwd: dir, env: baseEnv({ ...env, ...database.env }), timeoutMs: 180_000 });
    admin = await ApiClient.login(server.url, 'admin', adminPassword);
    browser = await launchChromium(executable!);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => errors.push(`page error: ${error.stack ?? error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/Failed to load resource/.test(message.text()))
        errors.push(`console: ${message.text()}`);
    });
    await page.goto(`${server.url}/login`);
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill(adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop('SIGTERM');
    await fixtures?.close();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page)
      await screenshot(page, `failed-models-${this.currentTest.title.slice(0, 40).replace(/\W+/g, '-')}`);
  });

  it('lists the catalogue, pulls a model showing its progress, and it appears installed', async () => {
    await nav('Models');
    await page.getByRole('heading', { level: 1, name: 'Models' }).waitFor();
    const entry = page.locator('li[data-model="tiny-chat-a"]');
    await entry.getByText('recommended').waitFor();
    await page.getByText('No model is installed yet: pull one below.').waitFor();
    await screenshot(page, 'models-catalogue');

    // Slowly enough (16 KiB every 100 ms) that the page polls the job while it runs.
    fixtures!.files.throttle({ chunkBytes: 16 * 1024, delayMs: 100 });
    await entry.getByRole('button', { name: 'Pull tiny-chat-a' }).click();
    const bar = entry.getByRole('progressbar', { name: 'Pull of tiny-chat-a' });
    await bar.waitFor();
    await page.waitForFunction(() => {
      const value = Number(document.querySelector('[aria-label="Pull of tiny-chat-a"]')?.getAttribute('aria-valuenow'));
      return value > 0 && value < 100;
    });
    expect(await entry.innerText()).to.match(/\d+ of \d+ KiB/);
    await screenshot(page, 'models-pull-progress');
    fixtures!.files.throttle(null);

    await page.getByText('Pulled tiny-chat-a.').waitFor({ timeout: 60_000 });
    await bar.waitFor({ state: 'detached' });
    const installed = page.locator('tr[data-model="tiny-chat-a"]');
    await installed.waitFor();
    await entry.getByText('installed', { exact: true }).waitFor();
    await screenshot(page, 'models-pulled');
    const listed = (await admin.call('GET', '/api/models')).body as { installed: Array<{ name: string }> };
    expect(listed.installed.map((m) => m.name)).to.deep.equal(['tiny-chat-a']);
  });

  it('uses the installed model for chat, and returns to the configured one', async () => {
    const installed = page.locator('tr[data-model="tiny-chat-a"]');
    await installed.getByRole('button', { name: 'Use tiny-chat-a' }).click();
    await page.getByText(/^tiny-chat-a is now the chat model \(context \d+\)\.$/).waitFor();
    await installed.getByText('in use').waitFor();
    await page.locator('dd[data-purpose="chat"]').getByText('tiny-chat-a').waitFor();
    await screenshot(page, 'models-in-use');
    const active = (await admin.call('GET', '/api/models')).body as { active: { chat: { name: string } | null } };
    expect(active.active.chat?.name).to.equal('tiny-chat-a');

    await installed.getByRole('button', { name: 'Stop using tiny-chat-a' }).click();
    await page.getByText('The configured model is now the chat model', { exact: false }).waitFor();
    await installed.getByRole('button', { name: 'Use tiny-chat-a' }).waitFor();
  });

  it('shows a pulled reranking model without a Use button: RAG_RERANK_MODEL chooses it', async () => {
    const entry = page.locator('li[data-model="tiny-reranker"]');
    await entry.getByRole('button', { name: 'Pull tiny-reranker' }).click();
    await page.getByText('Pulled tiny-reranker.').waitFor({ timeout: 60_000 });
    const row = page.locator('tr[data-model="tiny-reranker"]');
    await row.getByText('RAG_RERANK_MODEL').waitFor();
    expect(await row.locator('td').first().innerText()).to.equal('reranking');
    expect(await row.getByRole('button').count()).to.equal(0);
  });

  it('explains on the access screen that grants need the ENTERPRISE plan', async () => {
    const created = await admin.call('POST', '/api/integrations', {
      name: 'Wiki',
      type: 'web',
      config: { start_url: 'http://127.0.0.1:9/' },
      enabled: false,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    await nav('Sources & jobs');
    await page.getByRole('button', { name: 'Access to Wiki' }).click();
    const panel = page.getByRole('region', { name: 'Access to Wiki' });
    await panel.getByText('Access grants need the ENTERPRISE plan').waitFor();
    await panel.getByText('Without grants, Wiki is visible to every signed-in user.').waitFor();
    await panel.getByRole('link', { name: 'Apply a license' }).waitFor();
    expect(await panel.getByRole('checkbox').count()).to.equal(0);
    expect(await panel.getByRole('button', { name: 'Save access' }).count()).to.equal(0);
    await screenshot(page, 'access-plan-gate');
  });

  it('logged no error in the browser', () => {
    expect(errors).to.deep.equal([]);
  });
});
