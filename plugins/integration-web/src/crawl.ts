import { createGuardedFetch, DocqaError, type ConnectorDocument, type ConnectorEvent } from '@docqa/plugin-api';
import type { Logger, OutboundGuard } from '@docqa/plugin-api';
import type { BodyStore } from './body-store.js';
import type { WebSourceConfig } from './config.js';
import { CrawlScope } from './crawl-scope.js';
import { CrawlStateStore, type PageState } from './crawl-state.js';
import type { HtmlPage } from './html-page.js';
import { isHtml, mediaTypeEssence } from './media-types.js';
import { fetchPage } from './page-fetch.js';
import { PoliteFetcher } from './polite-fetcher.js';
import { fetchRobotsRules } from './robots.js';
import { readSitemapUrls } from './sitemap.js';

export interface CrawlSettings {
  config: WebSourceConfig;
  sourceId: string;
  stateDir: string;
  bodies: BodyStore;
  logger: Logger;
  /** The plugin's outboundAllow policy: every URL the crawl fetches, redirects included, is checked. */
  guard: OutboundGuard;
}

/** How often a crawl reports progress, in fetched URLs. */
const progressEveryPages = 20;
interface QueuedUrl {
  url: URL;
  depth: number;
}

/**
 * One sync: a full crawl of the site, made cheap by conditional requests. With a cursor, the state
 * file's generation it names supplies each page's ETag and Last-Modified (a 304 yields nothing) and
 * the list of pages indexed before: those the crawl no longer reaches, or that answer 404/410, are
 * deleted. Without a cursor (or with one the state file no longer has), every page is upserted and
 * nothing can be deleted, because nothing is known about the previous index.
 */
export async function* crawlSite(
  settings: CrawlSettings,
  cursor: string | null,
  signal: AbortSignal,
): AsyncGenerator<ConnectorEvent> {
  signal.throwIfAborted();
  // cheerio loads with the first crawl, not with every server (26 MB resident measured).
  const { decodeHtml, parseHtmlPage } = await import('./html-page.js');
  const { config, logger, sourceId } = settings;
  const start = new URL(config.start_url);
  start.hash = '';
  // A start_url on a refused address fails the sync with the guard's own error, naming the option.
  // Other failures (a name that does not resolve) are left to the first request, which reports them.
  await settings.guard.checkUrl(start).catch((error: unknown) => {
    if (DocqaError.is(error)) throw error;
  });
  const stateStore = new CrawlStateStore(settings.stateDir, sourceId);
  const previous = cursor === null ? undefined : await stateStore.findGeneration(cursor);
  if (cursor !== null && !previous)
    logger.warn({ sourceId, cursor }, 'crawl state for the cursor not found; full crawl without deletions');
  const previousPages = previous?.pages ?? {};
  const previousByUrl = new Map(
    Object.entries(previousPages).map(([canonical, page]) => [page.url, { canonical, page }]),
  );

  const fetcher = new PoliteFetcher({
    userAgent: config.user_agent,
    timeoutMs: config.request_timeout_seconds * 1000,
    delayMs: config.delay_ms,
    authHeader: config.auth_header ? { origin: start.origin, value: config.auth_header } : undefined,
    fetch: createGuardedFetch(settings.guard),
  });
  const robots = await fetchRobotsRules(start, fetcher, config.user_agent, signal);
  if (robots.crawlDelayMs !== undefined) fetcher.setMinimumDelay(start.host, robots.crawlDelayMs);
  const scope = new CrawlScope(start, config, robots);
  if (!robots.isAllowed(start) && !config.sitemap_url) {
    throw new DocqaError(
      'validation_failed',
      `robots.txt of ${start.origin} disallows start_url ${start.href} for user agent ` +
        `'${config.user_agent}'; choose another start_url or a sitemap_url`,
    );
  }

  const queue: QueuedUrl[] = [];
  const queued = new Set<string>();
  const enqueue = (url: URL, depth: number) => {
    if (depth > config.max_depth || queued.has(url.href) || !scope.mayFetch(url)) return;
    queued.add(url.href);
    queue.push({ url, depth });
  };
  enqueue(start, 0);
  const sitemapUrls = config.sitemap_url
    ? [new URL(config.sitemap_url)]
    : robots.sitemaps.flatMap((s) => (URL.canParse(s) ? [new URL(s)] : []));
  // A sitemap on another host (a CDN) is read, but only its same-site URLs are crawled.
  for (const url of await readSitemapUrls(
    sitemapUrls,
    fetcher,
    (u) => !scope.isSameSite(u) || robots.isAllowed(u),
    logger,
    signal,
  )) {
    url.hash = '';
    enqueue(url, 0);
  }

  const pages: Record<string, PageState> = {};
  let fetched = 0;
  let upserts = 0;
  while (queue.length > 0 && fetched < config.max_pages) {
    signal.throwIfAborted();
    const { url, depth } = queue.shift()!;
    const known = previousByUrl.get(url.href);
    const outcome = await fetchPage(
      url,
      { etag: known?.page.etag, lastModified: known?.page.lastModified },
      fetcher,
      settings.bodies,
      signal,
    );
    fetched += 1;
    const followLinks = (links: string[]) => {
      for (const link of links) enqueue(new URL(link), depth + 1);
    };

    if (outcome.kind === 'failed' && url.href === start.href) {
      throw new DocqaError('unavailable', `Cannot read start_url ${start.href}: ${outcome.reason}`);
    }
    if (outcome.kind === 'unchanged' || outcome.kind === 'failed') {
      // Unchanged, or not readable right now: keep what the index has, and follow the links it had.
      if (outcome.kind === 'failed')
        logger.warn({ sourceId, url: url.href, reason: outcome.reason }, 'page not readable; kept as it was');
      if (known && !pages[known.canonical]) {
        pages[known.canonical] = known.page;
        followLinks(known.page.links);
      }
    } else if (outcome.kind === 'redirect') {
      // The target is crawled like a link at the same depth (if it is on the site and allowed).
      outcome.location.hash = '';
      enqueue(outcome.location, depth);
    } else if (outcome.kind === 'fetched') {
      const html = isHtml(outcome.contentType)
        ? parseHtmlPage(decodeHtml(outcome.body.head, outcome.contentType), url)
        : undefined;
      const canonical = html?.canonical && scope.isSameSite(html.canonical) ? html.canonical : url;
      const links = (html?.links ?? []).filter((link) => scope.mayFetch(link)).map((link) => link.href);
      followLinks(links);
      if (!pages[canonical.href] && scope.isIndexable(canonical)) {
        pages[canonical.href] = { url: url.href, sha256: outcome.body.sha256, links, ...validatorsOf(outcome) };
        // The same bytes as in the previous generation: the server ignored our conditional request.
        if (previousPages[canonical.href]?.sha256 !== outcome.body.sha256) {
          upserts += 1;
          yield { type: 'upsert', document: toDocument(url, canonical, outcome, html) };
        }
      }
    } else if (outcome.kind === 'gone' && url.href === start.href) {
      throw new DocqaError('unavailable', `start_url ${start.href} answered HTTP ${outcome.status}; check the URL`);
    }
    if (fetched % progressEveryPages === 0) yield { type: 'progress', done: fetched, total: fetched + queue.length };
  }
  signal.throwIfAborted();

  let deletes = 0;
  for (const canonical of Object.keys(previousPages)) {
    if (!pages[canonical]) {
      deletes += 1;
      yield { type: 'delete', externalId: canonical };
    }
  }
  signal.throwIfAborted();
  // Nothing changed at all: hand the same cursor back rather than a new generation of equal content.
  const nextCursor =
    previous && cursor !== null && upserts === 0 && deletes === 0 && samePages(previousPages, pages)
      ? cursor
      : await stateStore.save(pages);
  logger.info({ sourceId, fetched, upserts, deletes, queuedLeft: queue.length }, 'web site crawled');
  yield { type: 'checkpoint', cursor: nextCursor };
}

function validatorsOf(outcome: { etag?: string; lastModified?: string }): Pick<PageState, 'etag' | 'lastModified'> {
  return {
    ...(outcome.etag ? { etag: outcome.etag } : {}),
    ...(outcome.lastModified ? { lastModified: outcome.lastModified } : {}),
  };
}

function samePages(a: Record<string, PageState>, b: Record<string, PageState>): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function toDocument(
  url: URL,
  canonical: URL,
  outcome: Extract<Awaited<ReturnType<typeof fetchPage>>, { kind: 'fetched' }>,
  html: HtmlPage | undefined,
): ConnectorDocument {
  const modified = outcome.lastModified ? new Date(outcome.lastModified) : undefined;
  const { body } = outcome;
  const lastSegment = safeDecode(canonical.pathname.split('/').filter(Boolean).at(-1) ?? '') || canonical.host;
  return {
    externalId: canonical.href,
    path: canonical.pathname + canonical.search,
    title: html?.title ?? lastSegment,
    mediaType: mediaTypeEssence(outcome.contentType) || 'application/octet-stream',
    size: body.size,
    ...(modified && !Number.isNaN(modified.getTime()) ? { modifiedAt: modified } : {}),
    contentHash: body.sha256,
    metadata: { url: url.href },
    async open(openSignal?: AbortSignal) {
      openSignal?.throwIfAborted();
      return body.open(openSignal);
    },
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
