import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ApiClient } from '../support/api.js';
import { baseEnv, serveCli, type ServingCli } from '../support/cli.js';
import { chromiumPath, ensureWebBuilt, launchChromium, screenshot } from './support/browser.js';
import { enterprisePlan, serverDatabase } from './support/server.js';
import { textPdf, type PdfLine } from './support/text-pdf.js';

const adminPassword = 'admin-password-1';
const passage = 'The Zorblax reactor cools down for exactly nineteen hours before any maintenance starts.';

/** A page: a large bold heading (a section of its own for the chunker), then paragraph lines. */
const pdfPage = (heading: string, lines: string[]): PdfLine[] => [
  { text: heading, y: 740, size: 22, bold: true },
  ...lines.map((text, i) => ({ text, y: 700 - i * 16 })),
];

/** Three pages; the passage is on page 2, in the middle of its paragraph, wrapped over two lines. */
const manual = textPdf([
  pdfPage('Introduction', [
    'This manual describes the plant and the people who run it.',
    'Operators read it before their first shift in the control room.',
    'Every chapter ends with the checks a shift leader signs.',
  ]),
  [
    ...pdfPage('Reactor maintenance', [
      'Maintenance follows the schedule the shift leader keeps.',
      'The Zorblax reactor cools down for exactly nineteen hours',
      'before any maintenance starts. Nobody opens a hatch earlier.',
      'The cooling log is signed by two operators.',
    ]),
    // A second section on the same page: another chunk, which must stay unhighlighted.
    { text: 'Spare parts', y: 560, size: 22, bold: true },
    { text: 'Spare gaskets are stored in cabinet four of the workshop.', y: 520 },
  ],
  pdfPage('Visitors', [
    'Visitors sign in at the gate and wear a badge at all times.',
    'They never enter the reactor hall without an escort.',
  ]),
]);

const handbook = [
  '# Staff handbook',
  '',
  'General rules for everyone.',
  '',
  '## Travel',
  '',
  'Travel is booked through the travel desk.',
  '',
  '### Hotels',
  '',
  'Hotel costs are refunded up to 150 euros a night when the receipt is attached.',
  '',
  '## Holidays',
  '',
  'Everyone has thirty days of holiday a year.',
].join('\n');

/**
 * The document viewer and answer feedback (issue 27, item 5), in Debian's chromium against a real
 * `docqa serve`: a citation opens a PDF at the cited page with the passage highlighted in pdf.js's
 * text layer, a Markdown citation opens the text view at the passage under its headings, and a
 * thumbs down is stored (it is still there after a reload) and shows in the admins' analytics.
 */
describe('web UI: document viewer and answer feedback (real browser)', function () {
  this.timeout(600_000);
  const executable = chromiumPath();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-e2e-web-viewer-'));
  let database: Awaited<ReturnType<typeof serverDatabase>> | undefined;
  let server: ServingCli | undefined;
  let browser: Browser | undefined;
  let admin: ApiClient;
  let page: Page;
  const ids: Record<string, string> = {};
  const errors: string[] = [];

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
      // Conversations keep two turns: the thumbs of a third answer must find it where trimming put it.
      RAG_CONVERSATION_MAX_TURNS: '2',
    };
    const planEnv = enterprisePlan(dir);
    server = await serveCli({ cwd: dir, env: baseEnv({ ...env, ...planEnv, ...database.env }), timeoutMs: 180_000 });
    admin = await ApiClient.login(server.url, 'admin', adminPassword);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(manual)], { type: 'application/pdf' }), 'plant-manual.pdf');
    form.append('file', new Blob([handbook], { type: 'text/markdown' }), 'handbook.md');
    const uploaded = await fetch(`${server.url}/api/docs/upload`, {
      method: 'POST',
      headers: { authorization: admin.authorization },
      body: form,
    });
    expect(uploaded.status, await uploaded.clone().text()).to.equal(202);
    for (const document of ((await uploaded.json()) as { documents: Array<{ id: string; path: string }> }).documents)
      ids[document.path] = document.id;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const listed = (await admin.call('GET', '/api/docs?limit=10')).body.items as Array<{ status: string }>;
      if (listed.length === 2 && listed.every((d) => d.status === 'indexed')) break;
      if (listed.some((d) => d.status === 'failed') || Date.now() > deadline)
        throw new Error(`documents not indexed: ${JSON.stringify(listed)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    browser = await launchChromium(executable!);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (error) => errors.push(`page error: ${error.stack ?? error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/Failed to load resource/.test(message.text()))
        errors.push(`console: ${message.text()}`);
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(server!.url) && !/^(data|blob):/.test(request.url()))
        errors.push(`request elsewhere: ${request.url()}`);
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
      await screenshot(page, `failed-viewer-${this.currentTest.title.slice(0, 40).replace(/\W+/g, '-')}`);
  });

  async function ask(question: string) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chat', exact: true }).click();
    await page.getByRole('link', { name: 'New', exact: true }).click();
    await page.getByLabel('Question').fill(question);
    await page.getByLabel('Question').press('Enter');
    await page.getByRole('button', { name: 'Token budget and timing' }).waitFor();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    return page.locator('.answer').last();
  }

  it('opens a PDF citation at the cited page with the passage highlighted in the text layer', async () => {
    const answer = await ask('How long does the Zorblax reactor cool down before maintenance?');
    expect(await answer.locator('.markdown').innerText()).to.include('nineteen hours');
    await answer.locator('a.citation').first().click();
    await page.waitForURL(new RegExp(`/documents/${ids['plant-manual.pdf']}/view\\?`));
    await page.getByRole('heading', { level: 1, name: 'plant-manual.pdf' }).waitFor();
    const shown = page.locator('.pdf-page[data-page-number="2"] .textLayer .highlight').first();
    await shown.waitFor();
    expect(await page.locator('.pdf-page-number').innerText()).to.equal('Page 2 of 3');
    await page.locator('.heading-path', { hasText: 'Reactor maintenance' }).waitFor();
    const highlighted = await page
      .locator('.pdf-page .textLayer .highlight')
      .evaluateAll((spans) => spans.map((span) => span.textContent).join(' '));
    expect(highlighted.replace(/\s+/g, ' ')).to.include(passage);
    expect(highlighted, 'the next section of the page is another chunk').not.to.include('cabinet four');
    await page.locator('.pdf-page .textLayer span', { hasText: 'cabinet four' }).waitFor();
    // The highlight is drawn on the page, in view, and the canvas has the page drawn.
    const box = await shown.boundingBox();
    expect(box && box.width > 50 && box.height > 5, JSON.stringify(box)).to.equal(true);
    expect(await shown.isVisible()).to.equal(true);
    const inked = await page
      .locator('.pdf-page canvas')
      .evaluate((canvas: HTMLCanvasElement) =>
        Array.from(canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data).some(
          (value, i) => i % 4 !== 3 && value < 128,
        ),
      );
    expect(inked, 'the page is drawn on the canvas').to.equal(true);
    await screenshot(page, 'viewer-pdf-page-2-highlighted');
    // Page navigation: page 3 has no highlight, and back to page 2.
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.locator('.pdf-page-number', { hasText: 'Page 3 of 3' }).waitFor();
    await page.locator('.pdf-page[data-page-number="3"] .textLayer span', { hasText: 'Visitors' }).first().waitFor();
    expect(await page.locator('.pdf-page .textLayer .highlight').count()).to.equal(0);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.locator('.pdf-page[data-page-number="2"] .textLayer .highlight').first().waitFor();
  });

  it('opens a Markdown citation in the text view with the passage marked under its headings', async () => {
    const answer = await ask('How much are hotel costs refunded a night?');
    expect(await answer.locator('.markdown').innerText()).to.include('150 euros');
    await answer.locator('a.citation').first().click();
    await page.waitForURL(new RegExp(`/documents/${ids['handbook.md']}/view\\?`));
    const mark = page.locator('.document-text mark.passage');
    await mark.waitFor();
    expect(await mark.innerText()).to.include('Hotel costs are refunded up to 150 euros a night');
    expect(await page.locator('.heading-path').innerText()).to.equal('Staff handbook › Travel › Hotels');
    expect(await mark.isVisible()).to.equal(true);
    expect(await page.locator('.document-text').innerText()).to.include('thirty days of holiday');
    await screenshot(page, 'viewer-markdown-text');
  });

  it('keeps a thumbs down with its comment after a reload, and shows it in the admin analytics', async () => {
    await ask('How long does the Zorblax reactor cool down before maintenance?');
    const conversation = new URL(page.url()).pathname.split('/').pop()!;
    const rate = page.getByRole('group', { name: 'Rate this answer' }).last();
    await rate.getByRole('button', { name: 'Bad answer' }).click();
    await rate.getByText('Thanks for the feedback.').waitFor();
    await rate.getByLabel('What was wrong (optional)').fill('It should say which reactor.');
    await rate.getByRole('button', { name: 'Send comment' }).click();
    await rate.getByText('Thanks, your comment was saved.').waitFor();
    await page.reload();
    const again = page.getByRole('group', { name: 'Rate this answer' }).last();
    await again.waitFor();
    expect(await again.getByRole('button', { name: 'Bad answer' }).getAttribute('aria-pressed')).to.equal('true');
    expect(await again.getByRole('button', { name: 'Good answer' }).getAttribute('aria-pressed')).to.equal('false');
    expect(await again.getByLabel('What was wrong (optional)').inputValue()).to.equal('It should say which reactor.');
    await screenshot(page, 'feedback-thumbs-down');
    const stored = (await admin.call('GET', `/api/conversations/${conversation}`)).body;
    expect(stored.turns[0].feedback).to.include({ rating: 'down', comment: 'It should say which reactor.' });
    // A saved answer's citation opens the viewer too: stored sources keep their location.
    await page.locator('.answer a.citation').first().click();
    await page.locator('.pdf-page[data-page-number="2"] .textLayer .highlight').first().waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics', exact: true }).click();
    const report = page.getByRole('region', { name: 'Answer feedback' });
    await report.getByText('It should say which reactor.').waitFor();
    expect(await report.locator('.feedback-totals').innerText()).to.match(/0 thumbs up, 1 thumbs down/);
    const latest = report.locator('.down-rated > li').first();
    expect(await latest.innerText()).to.include('How long does the Zorblax reactor cool down before maintenance?');
    expect(await latest.innerText()).to.include('plant-manual.pdf');
    await screenshot(page, 'feedback-analytics');
  });

  it('rates the newest answer of a conversation whose oldest turns were trimmed away', async () => {
    await ask('How much are hotel costs refunded a night?');
    const conversation = new URL(page.url()).pathname.split('/').pop()!;
    for (const question of ['How many days of holiday are there?', 'Where are spare gaskets stored?']) {
      await page.getByLabel('Question').fill(question);
      await page.getByLabel('Question').press('Enter');
      await page
        .locator('.turn', { hasText: question })
        .getByRole('button', { name: 'Token budget and timing' })
        .waitFor();
    }
    const last = page.locator('.turn', { hasText: 'Where are spare gaskets stored?' });
    await last.getByRole('button', { name: 'Good answer' }).click();
    await last.getByText('Thanks for the feedback.').waitFor();
    const stored = (await admin.call('GET', `/api/conversations/${conversation}`)).body.turns as Array<{
      query: string;
      feedback: { rating: string } | null;
    }>;
    expect(stored.map((turn) => [turn.query, turn.feedback?.rating ?? null])).to.deep.equal([
      ['How many days of holiday are there?', null],
      ['Where are spare gaskets stored?', 'up'],
    ]);
  });

  it('logged no error in the browser and loaded nothing from elsewhere', () => {
    expect(errors).to.deep.equal([]);
  });
});
