import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createOutboundPolicy, type ConnectorEvent, type ConnectorProvider, type Logger } from '@docqa/plugin-api';
import integrationWeb from './index.js';
import { pluginOptionsSchema, type WebSourceConfig } from './config.js';
import { html, type TestSite } from './site.test-support.js';

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silentLogger };

/**
 * The test sites run on 127.0.0.1, which the crawler refuses unless its outboundAllow option allows
 * it (docs/security.md); tests that crawl them say so with these options.
 */
export const allowLoopback = { outboundAllow: ['127.0.0.1'] };

export async function initWeb(options: Record<string, unknown>): Promise<ConnectorProvider<WebSourceConfig>> {
  const provider = await integrationWeb.init({
    options: pluginOptionsSchema.parse(options),
    instanceId: 'web',
    deps: { logger: silentLogger, outbound: createOutboundPolicy([]) },
    logger: silentLogger,
    onStop: () => undefined,
    signal: new AbortController().signal,
  });
  return provider as ConnectorProvider<WebSourceConfig>;
}

/**
 * The standard test site: robots.txt disallowing /private, a sitemap naming a page nothing links
 * to, pages linking to each other, to the private area, to another host and to an image.
 */
export function buildSite(site: TestSite, external: TestSite): void {
  site.set('/robots.txt', 'User-agent: *\nDisallow: /private\n', 'text/plain');
  site.set(
    '/sitemap.xml',
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url('/')}</loc></url><url><loc>${site.url('/orphan.txt')}</loc></url></urlset>`,
    'application/xml',
  );
  site.set(
    '/',
    html('Home', [
      '/guide.html',
      '/guide.html?ref=nav#top',
      'faq.html',
      '/private/secret.html',
      `${external.origin}/elsewhere.html`,
      '/notes.md',
      '/logo.png',
      '/data.bin',
      'mailto:team@example.com',
    ]),
  );
  site.set(
    '/guide.html',
    html('Guide', ['/', '/deep/1.html'], `<link rel="canonical" href="${site.url('/guide.html')}">`),
  );
  site.set('/faq.html', html('FAQ', ['/']));
  site.set('/deep/1.html', html('Deep 1', ['/deep/2.html']));
  site.set('/deep/2.html', html('Deep 2', []));
  site.set('/notes.md', '# Notes\n\nMarkdown notes.\n', 'text/markdown; charset=utf-8');
  site.set('/orphan.txt', 'Only the sitemap knows me.', 'text/plain; charset=utf-8');
  site.set('/data.bin', Buffer.from([1, 2, 3]), 'application/octet-stream');
  site.set('/logo.png', Buffer.from([137, 80, 78, 71]), 'image/png');
  site.set('/private/secret.html', html('Secret', []));
  external.set('/elsewhere.html', html('Elsewhere', []));
}

export const standardDocuments = [
  '/',
  '/guide.html',
  '/faq.html',
  '/deep/1.html',
  '/deep/2.html',
  '/notes.md',
  '/orphan.txt',
];

export function temporaryDirectory(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-web-test-'));
}

export async function collect(
  provider: ConnectorProvider<WebSourceConfig>,
  config: Partial<WebSourceConfig> & { start_url: string },
  cursor: string | null = null,
  signal: AbortSignal = new AbortController().signal,
): Promise<ConnectorEvent[]> {
  const source = await provider.open(provider.sourceConfigSchema.parse({ delay_ms: 0, ...config }), {
    sourceId: 'web-test',
  });
  try {
    const events: ConnectorEvent[] = [];
    for await (const event of source.sync(cursor, signal)) events.push(event);
    return events;
  } finally {
    await source.close?.();
  }
}

export const upsertPaths = (events: ConnectorEvent[]) =>
  events.flatMap((e) => (e.type === 'upsert' ? [e.document.path] : [])).sort();
export const deletedIds = (events: ConnectorEvent[]) =>
  events.flatMap((e) => (e.type === 'delete' ? [e.externalId] : [])).sort();
export const cursorOf = (events: ConnectorEvent[]) => {
  const last = events.at(-1);
  if (last?.type !== 'checkpoint') throw new Error('no checkpoint at the end');
  return last.cursor;
};

export async function readAll(iterable: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of iterable) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}
