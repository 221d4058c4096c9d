import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { outboundAllowListSchema } from '@docqa/plugin-api';

/*
 * Two configurations, as in every connector:
 *  - plugin options, per plugin instance (docqa.config.json): where crawl state lives and memory bounds;
 *  - source config, per integration record (HTTP API): which site to crawl and how politely.
 * Both are strict objects so that a misspelt key is an error instead of a silently ignored setting.
 */

export const pluginOptionsSchema = z.strictObject({
  /**
   * Directory of the per-source state files (ETag, Last-Modified, links and hash of every page). The
   * cursor only names a generation inside that file: a cursor must stay small, the state does not.
   * The default lives in the temporary directory; losing it only costs one full re-crawl.
   */
  stateDir: z
    .string()
    .min(1)
    .refine((value) => path.isAbsolute(value), 'must be an absolute path')
    .default(path.join(os.tmpdir(), 'docqa-web-state')),
  /** Bodies up to this size stay in memory until the pipeline reads them; larger ones go to a temp file. */
  maxInMemoryBodyBytes: z
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  /** Bodies larger than this are skipped (with a warning): a crawler must not fill the disk with one URL. */
  maxDocumentBytes: z
    .number()
    .int()
    .positive()
    .default(100 * 1024 * 1024),
  /**
   * Host names, addresses and CIDR ranges the crawler may reach although they are not public
   * (loopback, private, link-local, CGNAT...). Empty by default: an API user who may add a web source
   * must not make the server crawl its own loopback services, the private network or a cloud
   * metadata endpoint and index what they answer (docs/security.md).
   */
  outboundAllow: outboundAllowListSchema,
});

export type PluginOptions = z.output<typeof pluginOptionsSchema>;

const httpUrl = z.url({ protocol: /^https?$/, hostname: z.regexes.hostname }).refine((value) => {
  const url = new URL(value);
  // Credentials in a URL end up in logs and in the documents' ids; auth_header is the secret place for them.
  return url.username === '' && url.password === '';
}, 'must not contain a user name or password (use auth_header)');

/** A URL path prefix such as `/docs/`. */
const pathPrefix = z.string().min(1).startsWith('/', 'must be a URL path starting with /');

export const webSourceConfigSchema = z.strictObject({
  /** Where the crawl starts; also defines the site: same scheme, host and port. */
  start_url: httpUrl,
  /** A sitemap or sitemap index whose URLs seed the crawl (besides start_url). */
  sitemap_url: httpUrl.optional(),
  /** Most URLs fetched per sync; pages beyond it are not indexed (and leave the index if they were). */
  max_pages: z.number().int().min(1).max(100_000).default(500),
  /** Most links followed from start_url (or a sitemap URL), which are at depth 0. */
  max_depth: z.number().int().min(0).max(100).default(5),
  /** Only URLs whose path starts with one of these prefixes are indexed (start_url is still read for links). */
  include: z.array(pathPrefix).min(1).optional(),
  /** URLs whose path starts with one of these prefixes are neither fetched nor indexed. */
  exclude: z.array(pathPrefix).optional(),
  user_agent: z.string().min(1).max(200).default('DocQA-Crawler/0.1'),
  request_timeout_seconds: z.number().positive().max(600).default(20),
  /** Pause between two requests to the same host; robots.txt's Crawl-delay raises it, never lowers it. */
  delay_ms: z.number().int().min(0).max(60_000).default(250),
  /** Sent as the Authorization header, to start_url's origin only. Write-only (secretFields). */
  auth_header: z.string().min(1).max(8192).optional(),
});

export type WebSourceConfig = z.output<typeof webSourceConfigSchema>;
