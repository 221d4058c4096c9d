import fs from 'node:fs';
import { expect } from 'chai';
import { DocqaError, type ConnectorProvider } from '@docqa/plugin-api';
import type { WebSourceConfig } from './config.js';
import { pluginOptionsSchema } from './config.js';
import { TestSite } from './site.test-support.js';
import { buildSite, collect, initWeb, temporaryDirectory, upsertPaths } from './crawl.test-support.js';

/*
 * The red team had 127.0.0.1, localhost, 127.1, 2130706433 and 0x7f000001 crawled and indexed. By
 * default the crawler now refuses loopback and every other non-public address, however written;
 * the outboundAllow option lets an operator allow an internal site.
 */

describe('integration-web: outbound addresses', function () {
  let site: TestSite;
  let external: TestSite;
  let stateDir: string;

  beforeEach(async function () {
    site = await new TestSite().start();
    external = await new TestSite().start();
    buildSite(site, external);
    stateDir = temporaryDirectory();
  });

  afterEach(async function () {
    await site.stop();
    await external.stop();
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  async function refusedSync(provider: ConnectorProvider<WebSourceConfig>, startUrl: string): Promise<DocqaError> {
    const error = await collect(provider, { start_url: startUrl }).then(
      () => null,
      (failed: unknown) => failed,
    );
    expect(DocqaError.is(error, 'validation_failed'), String(error)).to.equal(true);
    return error as DocqaError;
  }

  it('refuses a loopback site by default, however its address is written, and fetches nothing', async function () {
    const provider = await initWeb({ stateDir });
    const port = new URL(site.origin).port;
    // start_url takes host names and IPv4 literals only; IPv6 forms are the plugin API's tests.
    for (const host of ['127.0.0.1', 'localhost', '127.1', '2130706433', '0x7f000001', '0177.0.0.1']) {
      const error = await refusedSync(provider, `http://${host}:${port}/`);
      expect(error.message, host).to.match(/^Refused to connect to \S+: \S+ is a loopback address\./);
      expect(error.message, host).to.include('add it (or its address range) to the outboundAllow option of web');
    }
    expect(site.requests, 'no request reached the site').to.be.empty;
  });

  it('refuses private, link-local (metadata) and CGNAT addresses by default', async function () {
    const provider = await initWeb({ stateDir });
    for (const [url, range] of [
      ['http://10.0.0.1/', 'private'],
      ['http://192.168.0.1/', 'private'],
      ['http://169.254.169.254/latest/meta-data/', 'link-local'],
      ['http://100.64.0.1/', 'carrier-grade NAT'],
    ] as const) {
      expect((await refusedSync(provider, url)).message, url).to.include(range);
    }
  });

  it('crawls a site its outboundAllow option allows, and still refuses the addresses it does not', async function () {
    // The site is allowed by name; the sitemap, on the same address written as an IP, is not.
    const provider = await initWeb({ stateDir, outboundAllow: ['localhost'] });
    const start = site.url('/').replace('127.0.0.1', 'localhost');
    const events = await collect(provider, { start_url: start, sitemap_url: external.url('/sitemap.xml') });
    expect(upsertPaths(events)).to.include('/guide.html');
    expect(site.requests.length, 'the allowed site was crawled').to.be.above(3);
    expect(external.requests, 'the sitemap on a refused address was not fetched').to.be.empty;
  });

  it('validates outboundAllow entries', function () {
    expect(pluginOptionsSchema.parse({}).outboundAllow).to.deep.equal([]);
    const allowed = pluginOptionsSchema.safeParse({ outboundAllow: ['10.0.0.0/8', 'intranet.example.com', '::1'] });
    expect(allowed.success).to.equal(true);
    expect(pluginOptionsSchema.safeParse({ outboundAllow: ['http://intranet/'] }).success).to.equal(false);
  });
});
