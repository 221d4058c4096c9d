import crypto from 'node:crypto';
import fs from 'node:fs';
import { expect } from 'chai';
import type { ConnectorProvider } from '@docqa/plugin-api';
import { describeConnectorConformance } from '@docqa/plugin-testkit';
import type { WebSourceConfig } from './config.js';
import { TestSite, html } from './site.test-support.js';
import {
  buildSite,
  collect,
  cursorOf,
  deletedIds,
  initWeb,
  readAll,
  standardDocuments,
  temporaryDirectory,
  upsertPaths,
} from './crawl.test-support.js';
import { allowLoopback } from './crawl.test-support.js';

/*
 * The conformance suite and the crawl's main behaviour (scope, conditional requests, deletions)
 * against a real HTTP site on 127.0.0.1. limits.test.ts covers limits, politeness, auth and errors.
 */

describeConnectorConformance('integration-web', {
  async start() {
    const site = await new TestSite().start();
    const external = await new TestSite().start();
    buildSite(site, external);
    const stateDir = temporaryDirectory();
    return {
      provider: await initWeb({ ...allowLoopback, stateDir }),
      validConfig: { start_url: site.url('/'), sitemap_url: site.url('/sitemap.xml'), delay_ms: 0 },
      invalidConfig: { start_url: 'ftp://127.0.0.1/', delay_ms: 0 },
      async mutate() {
        site.set('/', html('Home', ['/guide.html', '/faq.html', '/new.html', '/notes.md']));
        site.set('/new.html', html('New', ['/']));
        site.set('/faq.html', html('FAQ', ['/'], '<meta name="description" content="now with answers">'));
        site.remove('/guide.html');
        return {
          added: [site.url('/new.html')],
          changed: [site.url('/'), site.url('/faq.html')],
          deleted: [site.url('/guide.html')],
        };
      },
      async dispose() {
        await site.stop();
        await external.stop();
        fs.rmSync(stateDir, { recursive: true, force: true });
      },
    };
  },
});

describe('integration-web: crawling', function () {
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

  it('crawls the site from start_url and sitemap: robots.txt obeyed, other hosts and non-documents left alone', async function () {
    const events = await collect(provider, { start_url: site.url('/'), sitemap_url: site.url('/sitemap.xml') });
    expect(upsertPaths(events)).to.deep.equal([...standardDocuments].sort());
    expect(site.requestsFor('/private/secret.html'), 'disallowed by robots.txt').to.be.empty;
    expect(external.requests, 'another host').to.be.empty;
    expect(site.requestsFor('/logo.png'), 'images are not even fetched').to.be.empty;
    expect(site.requestsFor('/robots.txt')[0]?.headers['user-agent']).to.equal('DocQA-Crawler/0.1');
    // /guide.html?ref=nav names /guide.html as canonical: one document, fetched under one of its URLs.
    const guide = events.flatMap((e) => (e.type === 'upsert' && e.document.path === '/guide.html' ? [e.document] : []));
    expect(guide).to.have.length(1);
    expect(guide[0]).to.include({ externalId: site.url('/guide.html'), title: 'Guide', mediaType: 'text/html' });
    const notes = events.find((e) => e.type === 'upsert' && e.document.path === '/notes.md');
    if (notes?.type !== 'upsert') throw new Error('no notes');
    const bytes = await readAll(await notes.document.open());
    expect(bytes.toString('utf8')).to.equal('# Notes\n\nMarkdown notes.\n');
    expect(notes.document).to.include({
      mediaType: 'text/markdown',
      size: bytes.length,
      contentHash: crypto.createHash('sha256').update(bytes).digest('hex'),
    });
    expect(notes.document.modifiedAt?.getTime()).to.be.a('number');
  });

  it('re-crawls with conditional requests: 304 answers yield nothing and keep the cursor', async function () {
    const first = await collect(provider, { start_url: site.url('/'), sitemap_url: site.url('/sitemap.xml') });
    site.requests.length = 0;
    const second = await collect(
      provider,
      { start_url: site.url('/'), sitemap_url: site.url('/sitemap.xml') },
      cursorOf(first),
    );
    expect(second.filter((e) => e.type === 'upsert' || e.type === 'delete')).to.be.empty;
    expect(cursorOf(second)).to.equal(cursorOf(first));
    for (const documentPath of standardDocuments) {
      // Exact paths: /guide.html?ref=nav is fetched as well, to learn that its canonical URL is /guide.html.
      const requests = site.requests.filter((r) => r.path === documentPath);
      expect(
        requests.map((r) => r.status),
        documentPath,
      ).to.deep.equal([304]);
      expect(requests[0]?.headers['if-none-match'], documentPath).to.match(/^"[0-9a-f]+"$/);
    }
  });

  it('uses Last-Modified when the server sends no ETag, and notices a changed page', async function () {
    await site.stop();
    site = await new TestSite({ etags: false }).start();
    buildSite(site, external);
    const config = { start_url: site.url('/') };
    const first = await collect(provider, config);
    site.set('/faq.html', html('FAQ', ['/'], '<meta name="robots" content="all">'));
    site.requests.length = 0;
    const second = await collect(provider, config, cursorOf(first));
    expect(upsertPaths(second)).to.deep.equal(['/faq.html']);
    expect(site.requestsFor('/faq.html')[0]?.headers['if-modified-since']).to.be.a('string');
    expect(site.requestsFor('/guide.html')[0]?.status).to.equal(304);
    expect(cursorOf(second)).to.not.equal(cursorOf(first));
  });

  it('deletes pages that answer 404 and pages no longer linked, but not pages that fail for a while', async function () {
    const config = { start_url: site.url('/') };
    const first = await collect(provider, config);
    site.remove('/deep/2.html'); // 404
    site.set('/', html('Home', ['/guide.html', '/notes.md'])); // faq.html is no longer linked
    site.set('/notes.md', 'x', 'text/markdown', { delayMs: 1000 }); // times out this once
    const second = await collect(provider, { ...config, request_timeout_seconds: 0.3 }, cursorOf(first));
    expect(deletedIds(second)).to.deep.equal([site.url('/deep/2.html'), site.url('/faq.html')]);
    expect(upsertPaths(second)).to.deep.equal(['/']);
    // The next sync, without the timeout, sees the new notes.
    const third = await collect(provider, config, cursorOf(second));
    expect(upsertPaths(third)).to.deep.equal(['/notes.md']);
  });

  it('a cursor the state no longer knows means a full crawl without deletions', async function () {
    const events = await collect(provider, { start_url: site.url('/') }, '00000000-0000-0000-0000-000000000000');
    expect(upsertPaths(events)).to.have.length(6);
    expect(deletedIds(events)).to.be.empty;
    expect(site.requests.some((r) => r.headers['if-none-match'] !== undefined)).to.equal(false);
  });
});
