import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Locator, Page } from 'playwright-core';
import { ApiClient } from '../support/api.js';
import { baseEnv, serveCli, type ServingCli } from '../support/cli.js';
import { chromiumPath, ensureWebBuilt, launchChromium, screenshot } from './support/browser.js';
import { enterprisePlan, serverDatabase } from './support/server.js';

const adminPassword = 'admin-password-1';
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The screens for what the API could do and the UI could not (issue 29, item 15): paging through
 * every list that grows, moving and bulk-deleting documents, and per-resource access grants on the
 * ENTERPRISE plan. A real `docqa serve` (embedded database or TEST_DATABASE_URL) and Debian's chromium.
 */
describe('web UI: paging, document move and bulk delete, access grants (real browser)', function () {
  this.timeout(600_000);
  const executable = chromiumPath();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-e2e-web-screens-'));
  let database: Awaited<ReturnType<typeof serverDatabase>> | undefined;
  let server: ServingCli | undefined;
  let browser: Browser | undefined;
  let admin: ApiClient;
  let page: Page;
  const errors: string[] = [];

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();

  before(async function () {
    if (!executable) {
      console.log('      SKIPPED: no chromium at /usr/bin/chromium (or CHROMIUM_PATH); these tests need a browser.');
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
      RAG_MIN_CHUNK_LENGTH: '1',
      SHUTDOWN_TIMEOUT_SECONDS: '5',
    };
    const planEnv = enterprisePlan(dir);
    server = await serveCli({ cwd: dir, env: baseEnv({ ...env, ...planEnv, ...database.env }), timeoutMs: 180_000 });
    admin = await ApiClient.login(server.url, 'admin', adminPassword);
    const created = async (route: string, body: unknown) => {
      const res = await admin.call('POST', route, body);
      expect(res.status, `${route}: ${JSON.stringify(res.body)}`).to.equal(201);
      return res.body;
    };
    // More of everything than one page (25) holds.
    for (let i = 1; i <= 26; i++) {
      await created('/api/auth/users', { username: `user-${pad(i)}`, password: 'user-password-1', role: 'viewer' });
      await created('/api/groups', { name: `team-${pad(i)}`, description: '' });
      const site = await created('/api/integrations', {
        name: `Site ${pad(i)}`,
        type: 'web',
        config: { start_url: `http://127.0.0.1:9/${i}/` },
        enabled: false,
      });
      await created('/api/schedules', {
        source_type: 'integration',
        source_id: site.id,
        cron: '0 3 * * *',
        enabled: true,
      });
      const chat = await admin.call('POST', '/api/chat', { query: `Question number ${pad(i)}?` });
      expect(chat.status, JSON.stringify(chat.body)).to.equal(200);
    }
    // 27 documents: 27 ingest jobs, more than the latest 25 the jobs panel showed.
    // An upload holds at most 20 files: two of them.
    const notes = Array.from({ length: 27 }, (_, i) => ({
      name: `note-${pad(i + 1)}.md`,
      text: `# Note ${i + 1}\n\nNote number ${i + 1} is about topic ${i + 1} of the archive.`,
    }));
    await admin.upload(notes.slice(0, 14));
    await admin.upload(notes.slice(14));
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
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page)
      await screenshot(page, `failed-screens-${this.currentTest.title.slice(0, 40).replace(/\W+/g, '-')}`);
  });

  /** Checks the pager reads "1–25 of total", that `last` is not on page one, and that Next shows it. */
  async function pagesThrough(label: string, total: number, last: () => Locator, shot: string) {
    const pager = page.getByRole('navigation', { name: label });
    await pager.getByText(`1–25 of ${total}`).waitFor();
    expect(await last().count(), 'not on the first page').to.equal(0);
    await screenshot(page, `${shot}-page-1`);
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText(`26–${total} of ${total}`).waitFor();
    await last().first().waitFor();
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).to.equal(true);
    await screenshot(page, `${shot}-page-2`);
    await pager.getByRole('button', { name: 'Previous' }).click();
    await pager.getByText(`1–25 of ${total}`).waitFor();
  }

  it('pages through users beyond the first 25', async () => {
    await nav('Users');
    await heading('Users');
    // Newest first or oldest first, one of admin and user-26 is on the second page of 27. The heading
    // shows before the list has loaded: its 25th row is waited for.
    await page.locator('tr[data-username]').nth(24).waitFor();
    const firstPage = await page
      .locator('tr[data-username]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-username')));
    expect(firstPage).to.have.length(25);
    const missing = ['admin', ...Array.from({ length: 26 }, (_, i) => `user-${pad(i + 1)}`)].filter(
      (name) => !firstPage.includes(name),
    );
    expect(missing).to.have.length(2);
    await pagesThrough('Pages of users', 27, () => page.locator(`tr[data-username="${missing[0]}"]`), 'paging-users');
  });

  it('pages through groups beyond the first 25', async () => {
    await nav('Groups');
    await heading('Groups');
    const groupNames = async () =>
      page.locator('.source-list > li strong').evaluateAll((items) => items.map((item) => item.textContent));
    await page.getByRole('navigation', { name: 'Pages of groups' }).getByText('1–25 of 27').waitFor();
    const groupsOne = await groupNames();
    await page.getByRole('navigation', { name: 'Pages of groups' }).getByRole('button', { name: 'Next' }).click();
    await page.getByRole('navigation', { name: 'Pages of groups' }).getByText('26–27 of 27').waitFor();
    const groupsTwo = await groupNames();
    expect(groupsTwo).to.have.length(2);
    expect([...groupsOne, ...groupsTwo].sort()).to.deep.equal(
      ['everyone', ...Array.from({ length: 26 }, (_, i) => `team-${pad(i + 1)}`)].sort(),
    );
    await screenshot(page, 'paging-groups-page-2');
  });

  it('pages through schedules beyond the first 25', async () => {
    await nav('Schedules');
    await heading('Schedules');
    await page.getByRole('navigation', { name: 'Pages of schedules' }).getByText('1–25 of 26').waitFor();
    expect(await page.locator('.source-list > li').count()).to.equal(25);
    await page.getByRole('navigation', { name: 'Pages of schedules' }).getByRole('button', { name: 'Next' }).click();
    await page.getByRole('navigation', { name: 'Pages of schedules' }).getByText('26–26 of 26').waitFor();
    expect(await page.locator('.source-list > li').count()).to.equal(1);
    await screenshot(page, 'paging-schedules-page-2');
  });

  it('pages through conversations beyond the first 25', async () => {
    await nav('Chat');
    const conversations = page.getByRole('navigation', { name: 'Conversations' });
    // Most recently active first: the first question asked is on the second page.
    await pagesThrough(
      'Pages of conversations',
      26,
      () => conversations.getByText('Question number 01?'),
      'paging-conversations',
    );
  });

  it('pages through jobs beyond the latest 25', async () => {
    await nav('Sources & jobs');
    await heading('Sources & jobs');
    const jobs = page.getByRole('navigation', { name: 'Pages of jobs' });
    const total = Number(/of (\d+)/.exec(await jobs.innerText())![1]);
    expect(total).to.be.at.least(27);
    await jobs.getByRole('button', { name: 'Next' }).click();
    await jobs.getByText(`26–${Math.min(total, 50)} of ${total}`).waitFor();
    expect(await page.locator('.job-list > li').count()).to.equal(Math.min(total, 50) - 25);
    await screenshot(page, 'paging-jobs-page-2');
  });

  it('moves a document to another path and deletes several at once', async () => {
    await nav('Documents');
    await heading('Documents');
    const row = (docPath: string) => page.locator(`tr[data-path="${docPath}"]`);
    await row('note-03.md').waitFor();
    await page.getByRole('button', { name: 'Move note-03.md' }).click();
    await page.getByLabel('New path of note-03.md').fill('archive/2026/note-03.md');
    await page.getByRole('form', { name: 'Move note-03.md' }).getByRole('button', { name: 'Move' }).click();
    await page.getByText('Moved note-03.md to archive/2026/note-03.md.').waitFor();
    await row('archive/2026/note-03.md').waitFor();
    await screenshot(page, 'documents-moved');
    const listed = (await admin.call('GET', '/api/docs?q=note-03&limit=5')).body.items as Array<{ path: string }>;
    expect(listed.map((d) => d.path)).to.deep.equal(['archive/2026/note-03.md']);

    for (const name of ['note-01.md', 'note-02.md', 'archive/2026/note-03.md'])
      await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    const selection = page.getByRole('group', { name: 'Selected documents' });
    await selection.getByText('3 documents selected').waitFor();
    await screenshot(page, 'documents-selected');
    await selection.getByRole('button', { name: 'Delete 3 selected documents' }).click();
    await selection.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Deleted 3 documents.').waitFor();
    await row('note-01.md').waitFor({ state: 'detached' });
    await screenshot(page, 'documents-bulk-deleted');
    const left = (await admin.call('GET', '/api/docs?limit=100')).body as {
      total: number;
      items: Array<{ path: string }>;
    };
    expect(left.total).to.equal(24);
    expect(left.items.map((d) => d.path)).to.not.include.members([
      'note-01.md',
      'note-02.md',
      'archive/2026/note-03.md',
    ]);
  });

  it('grants an integration and a document to groups (ENTERPRISE), and opens them again', async () => {
    const groups = (await admin.call('GET', '/api/groups?limit=100')).body.items as Array<{ id: string; name: string }>;
    const team = (name: string) => groups.find((g) => g.name === name)!.id;
    await nav('Sources & jobs');
    await heading('Sources & jobs');
    await page.getByRole('button', { name: 'Access to Site 05' }).click();
    const panel = page.getByRole('region', { name: 'Access to Site 05' });
    await panel.getByRole('checkbox', { name: 'team-01' }).check();
    await panel.getByRole('checkbox', { name: 'team-02' }).check();
    await panel.getByRole('button', { name: 'Save access' }).click();
    await panel.getByText('Only members of team-01, team-02 (and admins) may see Site 05.').waitFor();
    await screenshot(page, 'access-integration');
    const site = (
      (await admin.call('GET', '/api/integrations?limit=100')).body.items as Array<{ id: string; name: string }>
    ).find((s) => s.name === 'Site 05')!;
    const access = await admin.call('GET', `/api/access/integration/${site.id}`);
    expect([...(access.body.group_ids as string[])].sort()).to.deep.equal([team('team-01'), team('team-02')].sort());

    await nav('Documents');
    await heading('Documents');
    await page.getByRole('button', { name: 'Access to note-07.md' }).click();
    const docPanel = page.getByRole('region', { name: 'Access to note-07.md' });
    await docPanel.getByRole('checkbox', { name: 'team-03' }).check();
    await docPanel.getByRole('button', { name: 'Save access' }).click();
    await docPanel.getByText('Only members of team-03 (and admins) may see note-07.md.').waitFor();
    await screenshot(page, 'access-document');
    // Opened again, the panel shows what is stored; unticking everything opens it to everyone.
    await docPanel.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Access to note-07.md' }).click();
    const again = page.getByRole('region', { name: 'Access to note-07.md' });
    expect(await again.getByRole('checkbox', { name: 'team-03' }).isChecked()).to.equal(true);
    await again.getByRole('checkbox', { name: 'team-03' }).uncheck();
    await again.getByRole('button', { name: 'Save access' }).click();
    await again.getByText('note-07.md is open to every signed-in user.').waitFor();
    const docs = (await admin.call('GET', '/api/docs?q=note-07')).body.items as Array<{ id: string }>;
    expect((await admin.call('GET', `/api/access/document/${docs[0]!.id}`)).body.group_ids).to.deep.equal([]);
  });

  it('logged no error in the browser', () => {
    expect(errors).to.deep.equal([]);
  });
});
