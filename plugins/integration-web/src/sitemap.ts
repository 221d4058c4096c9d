import { XMLParser } from 'fast-xml-parser';
import type { Logger } from '@docqa/plugin-api';
import { readText, discardBody, type PoliteFetcher } from './polite-fetcher.js';

/** A sitemap may be 50 MB uncompressed (sitemaps.org); an index may name 50,000 sitemaps, we read fewer. */
const maxSitemapBytes = 50 * 1024 * 1024;
const maxSitemapFiles = 100;

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  processEntities: true,
  parseTagValue: false,
});

function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function locsOf(entries: unknown): string[] {
  return asArray(entries as Array<{ loc?: unknown }> | { loc?: unknown }).flatMap((entry) =>
    entry && typeof entry.loc === 'string' && entry.loc.trim() !== '' ? [entry.loc.trim()] : [],
  );
}

/**
 * Lists the page URLs of a sitemap (`<urlset>`) or a sitemap index (`<sitemapindex>`, followed one
 * level down and more if nested, up to maxSitemapFiles files). A sitemap that cannot be read is
 * logged and skipped: the crawl still has start_url and the links between pages.
 */
export async function readSitemapUrls(
  sitemapUrls: URL[],
  fetcher: PoliteFetcher,
  isAllowedSitemap: (url: URL) => boolean,
  logger: Logger,
  signal: AbortSignal,
): Promise<URL[]> {
  const queue = [...sitemapUrls];
  const visited = new Set<string>();
  const pages: URL[] = [];
  while (queue.length > 0 && visited.size < maxSitemapFiles) {
    signal.throwIfAborted();
    const sitemapUrl = queue.shift()!;
    if (visited.has(sitemapUrl.href) || !isAllowedSitemap(sitemapUrl)) continue;
    visited.add(sitemapUrl.href);
    let document: Record<string, unknown>;
    try {
      const { response } = await fetcher.get(sitemapUrl, signal, {}, 'application/xml, text/xml');
      if (response.status !== 200) {
        await discardBody(response);
        logger.warn({ sitemap: sitemapUrl.href, status: response.status }, 'sitemap not readable; skipped');
        continue;
      }
      document = parser.parse(await readText(response, maxSitemapBytes)) as Record<string, unknown>;
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      logger.warn({ sitemap: sitemapUrl.href, error: (error as Error).message }, 'sitemap not readable; skipped');
      continue;
    }
    const urlset = document.urlset as { url?: unknown } | undefined;
    const index = document.sitemapindex as { sitemap?: unknown } | undefined;
    for (const loc of locsOf(urlset?.url)) addUrl(pages, loc, sitemapUrl);
    for (const loc of locsOf(index?.sitemap)) addUrl(queue, loc, sitemapUrl);
  }
  return pages;
}

function addUrl(list: URL[], loc: string, base: URL): void {
  try {
    list.push(new URL(loc, base));
  } catch {
    // A malformed <loc> is the sitemap's problem, not a reason to stop reading it.
  }
}
