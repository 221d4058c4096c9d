import type { WebSourceConfig } from './config.js';
import type { RobotsRules } from './robots.js';
import { isWorthFetching } from './media-types.js';

/**
 * Which URLs the crawl may fetch and which it may index. One site only: same scheme, host and port
 * as start_url. robots.txt decides before anything else; include/exclude narrow it further.
 */
export class CrawlScope {
  readonly origin: string;

  constructor(
    readonly start: URL,
    private readonly config: WebSourceConfig,
    private readonly robots: RobotsRules,
  ) {
    this.origin = start.origin;
  }

  isSameSite(url: URL): boolean {
    return url.origin === this.origin;
  }

  /** include/exclude, by URL path prefix. */
  isIndexable(url: URL): boolean {
    if (this.config.exclude?.some((prefix) => url.pathname.startsWith(prefix))) return false;
    return !this.config.include || this.config.include.some((prefix) => url.pathname.startsWith(prefix));
  }

  /** Whether a URL found in a link or a sitemap may be requested. start_url only needs robots' consent. */
  mayFetch(url: URL): boolean {
    if (!this.isSameSite(url) || !this.robots.isAllowed(url)) return false;
    if (url.href === this.start.href) return true;
    return this.isIndexable(url) && isWorthFetching(url);
  }
}
