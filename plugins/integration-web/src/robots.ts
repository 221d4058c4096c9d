import robotsParserModule from 'robots-parser';
import { DocqaError } from '@docqa/plugin-api';
import { readText, discardBody, type PoliteFetcher } from './polite-fetcher.js';

// robots-parser is CommonJS, but its types declare an ES default export: under NodeNext the
// default import is module.exports itself, which is the parser function.
const robotsParser = robotsParserModule as unknown as (typeof robotsParserModule)['default'];

export interface RobotsRules {
  isAllowed(url: URL): boolean;
  /** Crawl-delay in milliseconds, when robots.txt sets one for our user agent. */
  crawlDelayMs: number | undefined;
  sitemaps: string[];
}

const allowEverything: RobotsRules = { isAllowed: () => true, crawlDelayMs: undefined, sitemaps: [] };

/**
 * Reads the site's robots.txt. As the Robots Exclusion Protocol (RFC 9309) says: a missing file
 * (4xx) allows everything; an unreachable one or a server error (5xx) does not. We then fail the
 * sync instead of treating the site as empty, because an empty crawl would delete every page.
 */
export async function fetchRobotsRules(
  start: URL,
  fetcher: PoliteFetcher,
  userAgent: string,
  signal: AbortSignal,
): Promise<RobotsRules> {
  const robotsUrl = new URL('/robots.txt', start.origin);
  let text: string;
  try {
    const { response } = await fetcher.get(robotsUrl, signal, {}, 'text/plain');
    if (response.status >= 400 && response.status < 500) {
      await discardBody(response);
      return allowEverything;
    }
    if (response.status >= 300 && response.status < 400) {
      // Redirected robots.txt files are rare; following them across hosts is not worth the risk.
      await discardBody(response);
      return allowEverything;
    }
    if (response.status >= 500) {
      await discardBody(response);
      throw new DocqaError(
        'unavailable',
        `Web site of start_url ${start.href} answered HTTP ${response.status} for ${robotsUrl.href}; try again later`,
      );
    }
    // 500 KiB is what RFC 9309 asks crawlers to read at least; more is not a robots file.
    text = await readText(response, 512 * 1024);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof DocqaError) throw error;
    throw new DocqaError(
      'unavailable',
      `Cannot reach start_url ${start.href} (reading ${robotsUrl.href}): ${describeFetchError(error)}`,
      { cause: error },
    );
  }
  const robots = robotsParser(robotsUrl.href, text);
  const crawlDelay = robots.getCrawlDelay(userAgent);
  return {
    // robots-parser answers undefined for URLs of another origin; the crawler never asks about those.
    isAllowed: (url) => robots.isAllowed(url.href, userAgent) !== false,
    crawlDelayMs:
      typeof crawlDelay === 'number' && Number.isFinite(crawlDelay) && crawlDelay > 0
        ? Math.min(crawlDelay, 60) * 1000
        : undefined,
    sitemaps: robots.getSitemaps(),
  };
}

/** fetch() says only "fetch failed"; the reason (ECONNREFUSED, a DNS failure) is in its cause. */
export function describeFetchError(error: unknown): string {
  const cause = (error as Error & { cause?: Error }).cause;
  return cause?.message ? `${(error as Error).message} (${cause.message})` : (error as Error).message;
}
