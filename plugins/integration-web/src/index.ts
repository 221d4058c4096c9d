/**
 * The web integration: crawls one site (same scheme, host and port as start_url) politely —
 * robots.txt, Crawl-delay, a pause between requests — seeded by a sitemap, and re-crawls it cheaply
 * with conditional requests. See crawl.ts for the sync and the README for the behaviour in full.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { definePlugin, tokens, type ConnectorProvider, type ConnectorSource } from '@docqa/plugin-api';
import { BodyStore } from './body-store.js';
import { pluginOptionsSchema, webSourceConfigSchema, type WebSourceConfig } from './config.js';
import { crawlSite } from './crawl.js';

export default definePlugin({
  apiVersion: 1,
  kind: 'connector',
  id: 'integration-web',
  description: 'Crawls a web site (sitemap, same-site links, robots.txt) with conditional requests.',
  configSchema: pluginOptionsSchema,
  deps: { logger: tokens.logger, outbound: tokens.outbound },

  init({ options, instanceId, deps, onStop, signal: shutdown }) {
    const logger = deps.logger.child({ plugin: instanceId });
    // The process's policy (OUTBOUND_ALLOW) with what this plugin's option allows on top.
    const guard = deps.outbound.extend(options.outboundAllow ?? [], `the outboundAllow option of ${instanceId}`);
    // Body files of sources not closed by the time the server stops are removed then.
    const openStores = new Set<BodyStore>();
    onStop(async () => {
      await Promise.all([...openStores].map((store) => store.clear()));
    });

    const provider: ConnectorProvider<WebSourceConfig> = {
      type: 'web',
      displayName: 'Web site',
      sourceKind: 'integration',
      sourceConfigSchema: webSourceConfigSchema,
      // Stored encrypted and answered as "***"; never logged, and sent to start_url's origin only.
      secretFields: ['auth_header'],
      capabilities: {
        incremental: true, // conditional requests: a 304 (or the same bytes) yields nothing
        deletions: true, // pages gone (404/410) or no longer linked are deleted
        acls: false, // a public web page carries no group list
      },
      async open(config, context): Promise<ConnectorSource> {
        const bodies = new BodyStore(
          path.join(os.tmpdir(), `docqa-web-bodies-${crypto.randomUUID()}`),
          options.maxInMemoryBodyBytes,
          options.maxDocumentBytes,
        );
        openStores.add(bodies);
        return {
          sync(cursor, signal) {
            const stop = AbortSignal.any([signal, shutdown]);
            const settings = { config, sourceId: context.sourceId, stateDir: options.stateDir, bodies, logger, guard };
            return crawlSite(settings, cursor, stop);
          },
          async close() {
            openStores.delete(bodies);
            await bodies.clear();
          },
        };
      },
    };
    return provider;
  },
});
