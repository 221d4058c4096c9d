// The callbacks of page.evaluate and waitForFunction run in the browser: they are typed with the DOM.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TestIdp } from '../../packages/server/src/testing/oidc-idp.test-support.js';
import { baseEnv, serveCli, type ServingCli } from '../support/cli.js';
import { chromiumPath, ensureWebBuilt, launchChromium, screenshot } from './support/browser.js';
import { enterprisePlan, serverDatabase } from './support/server.js';
import { startSlowSite } from './support/slow-site.js';
import { totp } from './support/totp.js';

const adminPassword = 'admin-password-1';

const invoices = `# Invoice archiving

Invoices are archived for ten years in the finance vault. The finance team reviews the archive every spring.

Paper invoices are scanned within five working days and then shredded.`;

// Quoted by the extractive backend into an answer: markup in a document must not run in the UI.
const vault =
  'The vault combination is kept by the facilities team <img src=x onerror="window.__hacked=1"><script>window.__hacked=2</script> and changed every quarter.';

const holidays = `# Holidays

Employees get twenty-five days of paid holiday a year. Unused days carry over until the end of March.`;

/** A port free now, so PUBLIC_URL (the single sign-on redirects) can name it before the server starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The web UI end to end: a real `docqa serve` (from source, on the embedded database or
 * TEST_DATABASE_URL), Debian's chromium driven by playwright-core, a real OpenID provider and a
 * real web site on loopback. Each step leaves a screenshot in test-output/screenshots/.
 */
describe('web UI in a real browser (end to end)', function () {
  this.timeout(600_000);
  const executable = chromiumPath();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-e2e-web-'));
  let database: Awaited<ReturnType<typeof serverDatabase>> | undefined;
  let server: ServingCli | undefined;
  let site: Awaited<ReturnType<typeof startSlowSite>> | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext;
  let page: Page;
  let url = '';
  const idp = new TestIdp();
  const errors: string[] = [];
  const cspReports: string[] = [];

  before(async function () {
    if (!executable) {
      console.log(
        '      SKIPPED: no chromium at /usr/bin/chromium (apt-get install -y chromium, or set CHROMIUM_PATH); the web UI tests need a real browser.',
      );
      this.skip();
    }
    await ensureWebBuilt();
    database = await serverDatabase();
    const planEnv = enterprisePlan(dir);
    await idp.listen();
    site = await startSlowSite();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    idp.configure([
      {
        client_id: 'docqa-web',
        client_secret: 'docqa-web-secret',
        redirect_uris: [`${url}/api/auth/oidc/corp/callback`],
      },
    ]);
    idp.accounts.set('olivia-sub', {
      sub: 'olivia-sub',
      email: 'olivia@example.com',
      preferred_username: 'olivia',
      groups: [],
    });
    idp.nextAccount = 'olivia-sub';
    const env = {
      JWT_SECRET_KEY: 'j'.repeat(48),
      MFA_ENCRYPTION_KEY: 'm'.repeat(48),
      DOCQA_DATA_DIR: path.join(dir, 'data'),
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DEFAULT_ADMIN_PASSWORD: adminPassword,
      RAG_MIN_CHUNK_LENGTH: '1',
      SHUTDOWN_TIMEOUT_SECONDS: '5',
      // The OpenID provider the admin screen stores runs on loopback, which the outbound policy
      // refuses unless allowed (docs/security.md).
      OUTBOUND_ALLOW: '127.0.0.1',
    };
    server = await serveCli({ cwd: dir, env: baseEnv({ ...env, ...planEnv, ...database.env }), timeoutMs: 180_000 });
    browser = await launchChromium(executable!);
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => errors.push(`page error: ${error.stack ?? error.message}`));
    page.on('request', (request) => {
      // Everything comes from DocQA itself; only the single sign-on step visits the identity provider.
      const origin = new URL(request.url()).origin;
      if (origin !== url && origin !== idp.issuer && !request.url().startsWith('data:'))
        errors.push(`request elsewhere: ${request.url()}`);
    });
    page.on('console', (message) => {
      const text = message.text();
      // A 401 of a wrong password is logged by the browser as a failed resource. Chromium reports a CSP
      // violation when the sanitiser parses a hostile inline handler (which never runs; checked below).
      if (message.type() !== 'error' || /Failed to load resource/.test(text)) return;
      if (/Content Security Policy/.test(text)) cspReports.push(text);
      else errors.push(`console: ${text}`);
    });
  });

  after(async () => {
    await browser?.close();
    await server?.stop('SIGTERM');
    await site?.close();
    await idp.stop();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  afterEach(function () {
    // A failing step leaves its screen behind, named after the step.
    if (this.currentTest?.state === 'failed' && page)
      return screenshot(page, `failed-${this.currentTest.title.replace(/\W+/g, '-').slice(0, 60)}`).then(
        () => undefined,
      );
  });

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();

  async function signIn(username: string, password: string): Promise<void> {
    await page.getByLabel('User name').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function signOut(): Promise<void> {
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await heading('Sign in');
  }

  it('serves the app at / with client routes, and keeps /api and /docs their own', async () => {
    const index = await fetch(`${url}/`);
    expect(index.status).to.equal(200);
    expect(index.headers.get('cache-control')).to.equal('no-cache');
    expect(index.headers.get('content-security-policy')).to.include("script-src 'self'");
    const html = await index.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset, 'the script of index.html').to.be.a('string');
    const script = await fetch(url + asset);
    expect(script.status).to.equal(200);
    expect(script.headers.get('cache-control'))
      .to.match(/max-age=31536000/)
      .and.to.include('immutable');
    expect(html, 'nothing is loaded from elsewhere').not.to.match(/(src|href)="(https?:)?\/\//);
    const reset = await fetch(`${url}/reset-password?token=abc`);
    expect([reset.status, reset.headers.get('content-type')]).to.deep.equal([200, 'text/html; charset=utf-8']);
    const api = await fetch(`${url}/api/nothing-here`);
    expect([api.status, ((await api.json()) as { code: string }).code]).to.deep.equal([404, 'not_found']);
    expect((await fetch(`${url}/assets/missing.js`)).status).to.equal(404);
    expect((await fetch(`${url}/docs/openapi.json`)).headers.get('content-type')).to.include('application/json');
  });

  it('signs in with a password', async () => {
    await page.goto(`${url}/documents`);
    await heading('Sign in');
    expect(new URL(page.url()).pathname).to.equal('/login');
    await screenshot(page, '01-sign-in');
    await signIn('admin', 'wrong-password-1');
    await page.getByRole('alert').filter({ hasText: 'wrong' }).waitFor();
    await signIn('admin', adminPassword);
    // Back where the visit started.
    await heading('Documents');
    expect(new URL(page.url()).pathname).to.equal('/documents');
  });

  it('uploads documents (chooser and drag and drop) with progress, and shows them indexed', async () => {
    await page.locator('#upload-input').setInputFiles([
      { name: 'invoices.md', mimeType: 'text/markdown', buffer: Buffer.from(invoices) },
      { name: 'holidays.md', mimeType: 'text/markdown', buffer: Buffer.from(holidays) },
      { name: 'vault.txt', mimeType: 'text/plain', buffer: Buffer.from(vault) },
    ]);
    await page.getByRole('progressbar', { name: 'Upload of invoices.md, holidays.md, vault.txt' }).waitFor();
    await page.getByText('Uploaded 3 files').waitFor();
    // Drag and drop: a drop event carrying a file, as a desktop would send it.
    const dataTransfer = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(
        new File(['Travel expenses are refunded within thirty days of the claim.'], 'travel.txt', {
          type: 'text/plain',
        }),
      );
      return transfer;
    });
    await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer });
    await page.getByText('Uploaded 1 file').waitFor();
    for (const name of ['invoices.md', 'holidays.md', 'vault.txt', 'travel.txt']) {
      await page.locator('tr[data-status="indexed"]', { hasText: name }).waitFor({ timeout: 90_000 });
    }
    await page.getByRole('searchbox').fill('holi');
    await page.locator('tbody tr').filter({ hasText: 'holidays.md' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
    await page.getByRole('searchbox').fill('');
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 4);
    await screenshot(page, '02-documents');
    // Delete asks once more, then the document is gone.
    await page.getByRole('button', { name: 'Delete travel.txt' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 3);
    expect(await page.locator('tbody').innerText()).not.to.include('travel.txt');
  });

  it('asks a question and shows the streamed answer with citations linked to their sources', async () => {
    await nav('Chat');
    await heading('Chat');
    const chat = page.waitForResponse((res) => res.url() === `${url}/api/chat` && res.request().method() === 'POST');
    await page.getByLabel('Question').fill('How long are invoices archived?');
    await page.getByLabel('Question').press('Enter');
    const response = await chat;
    expect(response.headers()['content-type']).to.include('text/event-stream');
    const details = page.getByRole('button', { name: 'Token budget and timing' });
    await details.waitFor();
    const answer = page.locator('.answer .markdown').last();
    expect(await answer.innerText()).to.include('ten years');
    // The sources list below the answer shows the passage itself.
    const source = page.locator('.sources li details').first();
    await source.locator('summary').click();
    expect(await source.locator('summary').innerText()).to.include('invoices.md');
    expect(await source.locator('.chunk-text').innerText()).to.include('archived for ten years');
    // A citation opens the document at the passage (test/web/viewer.test.ts covers the viewer).
    await answer.locator('a.citation').first().click();
    await page.waitForURL(/\/documents\/[0-9a-f-]{36}\/view\?/);
    expect(await page.locator('.document-text mark.passage').innerText()).to.include('archived for ten years');
    await page.goBack();
    await details.waitFor();
    await details.click();
    await page.locator('.answer-details').getByText('Timing').waitFor();
    expect(await page.locator('.answer-details').innerText()).to.match(/total \d/);
    // The conversation got an address and a place in the list.
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    await page.locator('.conversations li.current').waitFor();
    await screenshot(page, '03-chat');
    // A stored conversation opens from the list with its turns (GET /api/conversations/{id}).
    const conversation = new URL(page.url()).pathname;
    await page.getByRole('link', { name: 'New', exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('.turn').length === 0);
    await page.locator('.conversations a', { hasText: 'How long are invoices archived?' }).click();
    await page.waitForURL(url + conversation);
    await page.locator('.answer .markdown', { hasText: 'ten years' }).waitFor();
    expect(await page.locator('.sources summary').first().innerText()).to.include('invoices.md');
  });

  it('renders answers as markdown without running markup quoted from documents', async () => {
    await page.getByRole('link', { name: 'New', exact: true }).click();
    await page.getByLabel('Question').fill('Who keeps the vault combination?');
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = page.locator('.answer .markdown').last();
    await answer.getByText(/facilities team/).waitFor();
    await page.getByRole('button', { name: 'Token budget and timing' }).waitFor();
    expect(await answer.locator('img, script, [onerror]').count()).to.equal(0);
    expect(await page.evaluate(() => (window as unknown as { __hacked?: number }).__hacked)).to.equal(undefined);
    expect(
      cspReports.every((report) => /inline event handler/.test(report)),
      cspReports.join('\n'),
    ).to.equal(true);
  });

  it('stops an answer while it streams (a slow network keeps the stream open)', async () => {
    const cdp = await context.newCDPSession(page);
    // About 40 bytes a second: the answer's stream stays open for many seconds.
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 50,
      downloadThroughput: 40,
      uploadThroughput: -1,
    });
    try {
      await page.getByLabel('Question').fill('When are paper invoices shredded?');
      await page.getByRole('button', { name: 'Send' }).click();
      const stop = page.getByRole('button', { name: 'Stop' });
      await stop.waitFor();
      await page.locator('.answer[aria-busy="true"]').waitFor();
      await screenshot(page, '03b-chat-streaming');
      await stop.click();
      await page.getByText('Stopped. An answer that was not completed is not saved.').waitFor();
      await page.getByRole('button', { name: 'Send' }).waitFor();
      expect(await page.locator('.answer[aria-busy="true"]').count()).to.equal(0);
    } finally {
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      await cdp.detach();
    }
  });

  it('creates an integration, syncs it, follows the job and cancels it', async () => {
    await nav('Sources & jobs');
    await heading('Sources & jobs');
    await page.getByRole('button', { name: 'New integration' }).click();
    const form = page.getByRole('form', { name: 'New integration' });
    await form.getByLabel('Name').fill('Handbook site');
    await form
      .getByLabel('Configuration (JSON)')
      .fill(JSON.stringify({ start_url: `${site!.origin}/`, max_pages: 100, delay_ms: 0 }, null, 2));
    await form.getByRole('button', { name: 'Create integration' }).click();
    const card = page.locator('.source-list li', { hasText: 'Handbook site' });
    await card.waitFor();
    await card.getByRole('button', { name: 'Sync', exact: true }).click();
    // The crawler fetched the start page and waits on a page the site holds open: running, with progress.
    const job = page.locator('.job[data-status="running"]', { hasText: 'sync of Handbook site' });
    await job.waitFor({ timeout: 60_000 });
    await job.getByRole('progressbar', { name: 'Progress of sync of Handbook site' }).waitFor();
    await screenshot(page, '04-sources-and-jobs');
    await job.getByRole('button', { name: 'Cancel sync of Handbook site' }).click();
    await page
      .locator('.job[data-status="cancelled"]', { hasText: 'sync of Handbook site' })
      .waitFor({ timeout: 60_000 });
    // Editing keeps the source and shows its stored configuration.
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit Handbook site' });
    expect(await edit.getByLabel('Configuration (JSON)').inputValue()).to.include(site!.origin);
    await edit.getByRole('button', { name: 'Cancel' }).click();
  });

  it('creates a user', async () => {
    await nav('Users');
    await heading('Users');
    const form = page.getByRole('form', { name: 'New user' });
    await form.getByLabel('User name').fill('alice');
    await form.getByLabel('Email').fill('alice@example.com');
    await form.getByLabel('Password').fill('alice-password-1');
    await form.getByLabel('Role').selectOption('viewer');
    await form.getByRole('button', { name: 'Create user' }).click();
    await page.getByText('Created alice.').waitFor();
    const row = page.locator('tr[data-username="alice"]');
    await row.waitFor();
    expect(await row.getByLabel('Role of alice').inputValue()).to.equal('viewer');
    await screenshot(page, '05-users');
  });

  it('changes the branding and uses it at once, and after a reload', async () => {
    await nav('Branding');
    await heading('Branding');
    await page.getByLabel('Product name').fill('Acme Answers');
    await page.getByLabel('Primary colour (hex)').fill('#0b7a3e');
    await page.getByLabel('Footer').fill('Acme Corp internal knowledge base');
    const logo =
      '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" fill="#f5a623"/></svg>';
    await page
      .getByLabel('Logo')
      .setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(logo) });
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Saved. The new branding is in use.').waitFor();
    const check = async () => {
      await page.locator('.topbar .brand-name', { hasText: 'Acme Answers' }).waitFor();
      expect(await page.locator('.topbar').evaluate((el) => getComputedStyle(el).backgroundColor)).to.equal(
        'rgb(11, 122, 62)',
      );
      await page.waitForFunction(
        () => (document.querySelector<HTMLImageElement>('.topbar img.brand-logo')?.naturalWidth ?? 0) > 0,
      );
      expect(await page.locator('.footer').innerText()).to.include('Acme Corp internal knowledge base');
    };
    await check();
    await screenshot(page, '06-branding');
    await page.reload();
    await check();
    expect(await page.title()).to.include('Acme Answers');
  });

  it('adds a single sign-on provider, manages groups, rules with a live preview and schedules', async () => {
    await nav('Single sign-on');
    await heading('Single sign-on');
    await page.getByRole('button', { name: 'Add provider' }).click();
    const form = page.getByRole('form', { name: 'New provider' });
    await form.getByLabel('Name', { exact: true }).fill('corp');
    await form.getByLabel('Display name').fill('Corp SSO');
    await form.getByLabel('Discovery URL').fill(idp.discoveryUrl);
    await form.getByLabel('Client ID').fill('docqa-web');
    await form.getByLabel('Client secret').fill('docqa-web-secret');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await page.locator('.source-list li', { hasText: 'Corp SSO' }).waitFor();
    await screenshot(page, '07-single-sign-on');

    await nav('Groups');
    await heading('Groups');
    await page.getByLabel('Name').fill('finance');
    await page.getByRole('button', { name: 'Create group' }).click();
    const group = page.locator('.source-list li', { hasText: 'finance' });
    await group.getByLabel('Add member').selectOption({ label: 'alice' });
    await group.getByRole('button', { name: 'Add', exact: true }).click();
    await group.getByRole('list', { name: 'Members of finance' }).getByText('alice').waitFor();
    await screenshot(page, '08-groups');

    await nav('Metadata rules');
    await heading('Metadata rules');
    await page.getByRole('button', { name: 'New rule' }).click();
    await page.getByLabel('Field name').fill('contract');
    await page.getByLabel('Pattern', { exact: true }).fill('Contract: (\\S+)');
    await page.locator('.preview').getByText('contract = A-1042').first().waitFor();
    await page.getByLabel('Pattern', { exact: true }).fill('Department: (\\w+)');
    await page.locator('.preview').getByText('contract = Finance').first().waitFor();
    await screenshot(page, '09-metadata-rules');
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.locator('table').getByText('Department: (\\w+)').waitFor();

    await nav('Schedules');
    await heading('Schedules');
    await page.getByLabel('Cron expression (UTC)').fill('30 2 * * 1-5');
    await page.getByText('At 02:30 UTC, on Monday to Friday').waitFor();
    await page.getByLabel('Cron expression (UTC)').fill('0 0 * * funday');
    await page.getByText('"funday" is not a valid day of week').waitFor();
    await page.getByLabel('Cron expression (UTC)').fill('*/30 * * * *');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    const schedule = page.locator('.source-list li', { hasText: 'Handbook site' });
    await schedule.getByText('Every 30 minutes').waitFor();
    await schedule.getByText(/next run \(server\) \w/).waitFor();
    await screenshot(page, '10-schedules');
  });

  it('shows analytics, the audit log with filters, the license and the runtime settings', async () => {
    await nav('Analytics');
    await heading('Analytics');
    await page.getByRole('heading', { name: 'Chunk sizes' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.report-card .loading').length === 0, undefined, {
      timeout: 30_000,
    });
    // The analytics endpoints are drawn from whatever JSON they answer: the chunk sizes as a histogram.
    const token = (
      (await (
        await fetch(`${url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: adminPassword }),
        })
      ).json()) as { access_token: string }
    ).access_token;
    const distribution = await fetch(`${url}/api/analytics/uploads/chunk-size-distribution`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const chunkSizes = page.locator('.report-card', { has: page.getByRole('heading', { name: 'Chunk sizes' }) });
    if (distribution.status === 200) expect(await chunkSizes.locator('.chart tbody tr').count()).to.be.greaterThan(0);
    else expect(await chunkSizes.locator('.hint').innerText()).to.have.length.greaterThan(0);
    await screenshot(page, '11-analytics');

    await nav('Audit log');
    await heading('Audit log');
    await page.locator('tbody').getByText('user.create').first().waitFor();
    await page.getByRole('form', { name: 'Filters' }).getByLabel('Type').selectOption('config.update');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForFunction(() => {
      const types = [...document.querySelectorAll('tbody th')].map((th) => th.textContent);
      return types.length > 0 && types.every((type) => type === 'config.update');
    });
    await page.getByRole('button', { name: 'Verify the chain' }).click();
    await page.getByText(/hash chain is intact/).waitFor();
    await screenshot(page, '12-audit-log');

    await nav('License');
    await heading('License');
    await page.waitForFunction(() => !document.querySelector('main .loading'));
    await screenshot(page, '13-license');

    await nav('Settings');
    await heading('Settings');
    await page.getByLabel('ACCESS_TOKEN_EXPIRE_SECONDS').waitFor();
    await page.getByLabel('RAG_CONVERSATION_MAX_TURNS').fill('60');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved RAG_CONVERSATION_MAX_TURNS.').waitFor();
    expect(await page.getByLabel('RAG_CONVERSATION_MAX_TURNS').inputValue()).to.equal('60');
    await screenshot(page, '14-settings');
  });

  it('is usable from the keyboard: a skip link first, then the navigation', async () => {
    await page.goto(`${url}/documents`);
    await heading('Documents');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).to.equal('main');
    // Links navigate in place and the new page's heading takes the focus.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users', exact: true }).focus();
    await page.keyboard.press('Enter');
    await heading('Users');
    expect(
      await page.evaluate(() => document.activeElement?.tagName + ':' + document.activeElement?.textContent),
    ).to.equal('H1:Users');
  });

  it('fits a phone: the menu opens from a button and nothing scrolls sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${url}/`);
      await heading('Chat');
      const menu = page.getByRole('button', { name: 'Menu' });
      expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).to.equal(false);
      await screenshot(page, '15-phone-chat');
      await menu.click();
      expect(await menu.getAttribute('aria-expanded')).to.equal('true');
      await screenshot(page, '16-phone-menu');
      await nav('Documents');
      await heading('Documents');
      expect(
        await page.getByRole('navigation', { name: 'Main' }).isVisible(),
        'the menu closes on navigation',
      ).to.equal(false);
      for (const path of ['/', '/documents', '/sources', '/admin/users']) {
        await page.goto(url + path);
        await page.locator('h1').waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `width of ${path}`).to.be.at.most(390);
      }
      await screenshot(page, '17-phone-users');
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it('resets a forgotten password from the emailed link, and signs in with the new one', async () => {
    await page.goto(`${url}/`);
    await heading('Chat');
    await signOut();
    // The sign-in page wears the branding and offers the single sign-on provider.
    expect(await page.locator('.auth-card .brand-name').innerText()).to.equal('Acme Answers');
    await page.getByRole('link', { name: 'Corp SSO' }).waitFor();
    await screenshot(page, '18-sign-in-branded');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await heading('Forgot your password?');
    await page.getByLabel('Email').fill('alice@example.com');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('status').waitFor();
    // EMAIL_PROVIDER=console writes the email to the server's log.
    const deadline = Date.now() + 20_000;
    let link: RegExpExecArray | null = null;
    while (!(link = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(server!.output())) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(link, 'a reset link in the log').not.to.equal(null);
    await page.goto(`${url}/reset-password?token=${link![1]}`);
    await heading('Set a new password');
    await page.getByLabel('New password', { exact: true }).fill('alice-new-password-2');
    await page.getByLabel('New password again').fill('alice-new-password-2');
    await screenshot(page, '19-reset-password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is set.').waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signIn('alice', 'alice-new-password-2');
    await heading('Chat');
    // A viewer is offered no administration.
    for (const name of ['Users', 'Branding', 'Settings', 'Audit log'])
      expect(
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).count(),
        name,
      ).to.equal(0);
    await page.goto(`${url}/admin/users`);
    await heading('Not allowed');
  });

  it('creates, lists and revokes an API key on the Account screen; the key works until revoked', async () => {
    await page.getByRole('link', { name: 'alice', exact: true }).click();
    await heading('Your account');
    const keys = page.getByRole('region', { name: 'API keys' });
    // The scopes show once the screen knows the caller's role: wait for them before counting.
    await keys.getByRole('checkbox').first().waitFor();
    expect(await keys.getByRole('checkbox').count(), 'a viewer may give a key read only').to.equal(1);
    await keys.getByLabel('Key name').fill('my script');
    await keys.getByLabel('Expires after (days)').fill('30');
    await keys.getByRole('button', { name: 'Create key' }).click();
    const secret = (await keys.locator('code.new-api-key').innerText()).trim();
    expect(secret).to.match(/^docqa_[\w-]{43}$/);
    const row = keys.locator('tr[data-key-name="my script"]');
    await row.waitFor();
    expect(await row.innerText())
      .to.include(secret.slice(0, 14))
      .and.include('read')
      .and.not.include(secret.slice(14));
    await screenshot(page, '19-account-api-keys');
    const me = async () =>
      (await fetch(`${url}/api/auth/me`, { headers: { authorization: `Bearer ${secret}` } })).status;
    expect(await me()).to.equal(200);
    await keys.getByRole('button', { name: 'Done' }).click();
    expect(await keys.locator('code.new-api-key').count(), 'the secret is gone from the screen').to.equal(0);
    await row.getByRole('button', { name: 'Revoke my script' }).click();
    await row.getByRole('button', { name: 'Confirm' }).click();
    await keys.getByText('Revoked my script.').waitFor();
    // The message comes first; the list reloads after it.
    await row.waitFor({ state: 'detached' });
    expect(await me()).to.equal(401);
  });

  it('turns on two-step verification, then signs in with the TOTP step', async () => {
    await page.getByRole('link', { name: 'alice', exact: true }).click();
    await heading('Your account');
    await page.getByRole('button', { name: 'Set up' }).click();
    const secret = (await page.locator('code.secret').innerText()).trim();
    await page.getByLabel('First code').fill(totp(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('Two-step verification is on.').waitFor();
    const recovery = (await page.locator('.recovery-codes code').first().innerText()).trim();
    await screenshot(page, '20-account-totp');
    await signOut();
    await signIn('alice', 'alice-new-password-2');
    await heading('Two-step verification');
    await screenshot(page, '21-sign-in-totp');
    await page.getByLabel('Verification code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Verification code').fill(recovery);
    await page.getByRole('button', { name: 'Verify' }).click();
    await heading('Chat');
    await signOut();
  });

  it('signs in through the OpenID provider, the tokens taken from the URL fragment', async () => {
    await page.getByRole('link', { name: 'Corp SSO' }).click();
    await heading('Chat');
    expect(new URL(page.url()).hash, 'the fragment with the tokens is gone').to.equal('');
    await page.getByRole('link', { name: 'olivia', exact: true }).waitFor();
    await signOut();
  });

  it('logged no error in the browser', () => {
    expect(errors).to.deep.equal([]);
  });
});
