import fs from 'node:fs';
import net from 'node:net';
import { expect } from 'chai';
import { DocqaError, type ConnectorProvider } from '@docqa/plugin-api';
import type { WebSourceConfig } from './config.js';
import { TestSite, html } from './site.test-support.js';
import { buildSite, collect, initWeb, readAll, temporaryDirectory, upsertPaths } from './crawl.test-support.js';
import { allowLoopback } from './crawl.test-support.js';

/* Limits, politeness, authentication, cancellation and errors of the web integration. */

describe('integration-web: limits, politeness and errors', function () {
  let site: TestSite;
  let external: TestSite;
  let stateDir: string;
  let provider: ConnectorProvider<WebSourceConfig>;

  beforeEach(async function () {
    site = await new TestSite().start();
    external = await new TestSite().start();
    buildSite(site, external);
    stateDir = temporaryDirectory();
    provider = await initWeb({ ...allowLoopback, stateDir });
  });

  afterEach(async function () {
    await site.stop();
    await external.stop();
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  const pageRequests = () => site.requests.filter((r) => r.path !== '/robots.txt' && r.path !== '/sitemap.xml');

  it('max_depth bounds how far links are followed, max_pages how many URLs are fetched', async function () {
    expect(upsertPaths(await collect(provider, { start_url: site.url('/'), max_depth: 0 }))).to.deep.equal(['/']);
    expect(upsertPaths(await collect(provider, { start_url: site.url('/'), max_depth: 1 }))).to.deep.equal([
      '/',
      '/faq.html',
      '/guide.html',
      '/notes.md',
    ]);
    site.requests.length = 0;
    const limited = await collect(provider, { start_url: site.url('/'), max_pages: 2 });
    expect(pageRequests()).to.have.length(2);
    expect(upsertPaths(limited)).to.deep.equal(['/', '/guide.html']);
  });

  it('include and exclude narrow the crawl by path prefix; start_url is read for its links only', async function () {
    const included = await collect(provider, { start_url: site.url('/'), include: ['/deep/', '/guide'] });
    expect(upsertPaths(included)).to.deep.equal(['/deep/1.html', '/deep/2.html', '/guide.html']);
    site.requests.length = 0;
    const excluded = await collect(provider, { start_url: site.url('/'), exclude: ['/deep/'] });
    expect(upsertPaths(excluded)).to.deep.equal(['/', '/faq.html', '/guide.html', '/notes.md']);
    expect(
      site.requests.filter((r) => r.path.startsWith('/deep/')),
      'excluded paths are not fetched',
    ).to.be.empty;
  });

  it('honours Crawl-delay as a minimum pause between requests', async function () {
    site.set('/robots.txt', 'User-agent: *\nCrawl-delay: 0.3\n', 'text/plain');
    await collect(provider, { start_url: site.url('/'), max_depth: 1, delay_ms: 0 });
    const times = site.requests.map((r) => r.at);
    expect(times.length).to.be.at.least(4);
    for (let i = 1; i < times.length; i += 1)
      expect(times[i]! - times[i - 1]!, `pause before request ${i}`).to.be.at.least(280);
  });

  it('sends auth_header to the site (robots.txt and sitemap included) and never elsewhere', async function () {
    await site.stop();
    site = await new TestSite({ requiredAuthorization: 'Bearer s3cret' }).start();
    buildSite(site, external);
    const events = await collect(provider, {
      start_url: site.url('/'),
      sitemap_url: site.url('/sitemap.xml'),
      auth_header: 'Bearer s3cret',
    });
    expect(upsertPaths(events)).to.include.members(['/', '/orphan.txt', '/guide.html']);
    expect(site.requests.every((r) => r.status !== 401)).to.equal(true);
    expect(external.requests).to.be.empty;
    expect(provider.secretFields).to.deep.equal(['auth_header']);
    const refused = await collect(provider, { start_url: site.url('/') }).catch((error: unknown) => error);
    expect(DocqaError.is(refused, 'unavailable'), String(refused)).to.equal(true);
    expect((refused as Error).message)
      .to.contain(site.url('/'))
      .and.contain('401')
      .and.not.contain('s3cret');
  });

  it('cancels a sync waiting for a slow server at once, with the signal reason', async function () {
    site.set('/faq.html', html('FAQ', []), 'text/html', { delayMs: 5000 });
    const controller = new AbortController();
    const reason = new Error('job cancelled');
    setTimeout(() => controller.abort(reason), 300);
    const startedAt = Date.now();
    const thrown = await collect(provider, { start_url: site.url('/') }, null, controller.signal).catch(
      (error: unknown) => error,
    );
    expect(thrown).to.equal(reason);
    expect(Date.now() - startedAt).to.be.below(2000);
  });

  it('an unreachable start_url fails with unavailable naming it', async function () {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const thrown = await collect(provider, { start_url: `http://127.0.0.1:${port}/docs/` }).catch(
      (error: unknown) => error,
    );
    expect(DocqaError.is(thrown, 'unavailable'), String(thrown)).to.equal(true);
    expect((thrown as Error).message).to.contain(`http://127.0.0.1:${port}/docs/`);
    site.remove('/');
    const missing = await collect(provider, { start_url: site.url('/') }).catch((error: unknown) => error);
    expect(DocqaError.is(missing, 'unavailable'), String(missing)).to.equal(true);
  });

  it('streams large bodies to a temporary file and serves them from there until the source closes', async function () {
    const big = Buffer.alloc(200_000, 'abcdefghij');
    site.set('/big.txt', big, 'text/plain');
    site.set('/', html('Home', ['/big.txt']));
    const small = await initWeb({ ...allowLoopback, stateDir, maxInMemoryBodyBytes: 10_000 });
    const source = await small.open(small.sourceConfigSchema.parse({ start_url: site.url('/'), delay_ms: 0 }), {
      sourceId: 'big',
    });
    const events = [];
    for await (const event of source.sync(null, new AbortController().signal)) events.push(event);
    const document = events.flatMap((e) =>
      e.type === 'upsert' && e.document.path === '/big.txt' ? [e.document] : [],
    )[0]!;
    expect(document.size).to.equal(big.length);
    expect((await readAll(await document.open())).equals(big)).to.equal(true);
    await source.close?.();
    const tooBig = await initWeb({ ...allowLoopback, stateDir, maxDocumentBytes: 100_000 });
    expect(upsertPaths(await collect(tooBig, { start_url: site.url('/') }))).to.deep.equal(['/']);
  });

  it('validates source config and plugin options, filling in defaults', async function () {
    const schema = provider.sourceConfigSchema;
    expect(schema.parse({ start_url: 'https://docs.example.com/' })).to.deep.equal({
      start_url: 'https://docs.example.com/',
      max_pages: 500,
      max_depth: 5,
      user_agent: 'DocQA-Crawler/0.1',
      request_timeout_seconds: 20,
      delay_ms: 250,
    });
    expect(schema.safeParse({ start_url: 'https://user:pw@docs.example.com/' }).success, 'credentials in URL').to.equal(
      false,
    );
    expect(schema.safeParse({ start_url: 'https://docs.example.com/', max_pages: 0 }).success, 'max_pages 0').to.equal(
      false,
    );
    expect(
      schema.safeParse({ start_url: 'https://docs.example.com/', max_pages: 100_001 }).success,
      'max_pages too big',
    ).to.equal(false);
    expect(
      schema.safeParse({ start_url: 'https://docs.example.com/', include: ['docs'] }).success,
      'prefix without /',
    ).to.equal(false);
    expect(
      schema.safeParse({ start_url: 'https://docs.example.com/', startUrl: 'x' }).success,
      'misspelt key',
    ).to.equal(false);
    const { configSchema } = (await import('./index.js')).default;
    expect(configSchema.parse({}).stateDir).to.match(/docqa-web-state$/);
    expect(configSchema.safeParse({ stateDir: 'relative' }).success).to.equal(false);
  });
});
