/**
 * The connector template: a complete DocQA connector to copy. It indexes a JSON Lines file (one
 * record per line) and shows every part a real connector needs: options, a source config schema,
 * capabilities, incremental sync with a cursor, deletions, access-control groups, progress,
 * cancellation and errors a user can act on.
 *
 * Read this file first, then feed.ts (the sync) and feed-record.ts (one line → one document).
 */
import { definePlugin, tokens, type ConnectorProvider, type ConnectorSource } from '@docqa/plugin-api';
import { feedSourceConfigSchema, pluginOptionsSchema, type FeedSourceConfig } from './config.js';
import { syncFeed } from './feed.js';

export default definePlugin({
  // The contract version this plugin is written for. The kernel refuses to load a plugin written
  // for another version instead of failing later in some unexpected way.
  apiVersion: 1,
  // The kind decides the token the kernel registers the result of init() under
  // (providerTokens.connector here); several connector plugins can run side by side.
  kind: 'connector',
  // `<kind>-<name>`: names the plugin in logs and in every start-up error. Rename it when you copy.
  id: 'connector-template',
  description: 'Indexes a JSON Lines feed: the connector to copy when writing your own.',
  // The plugin options (see config.ts). The kernel validates them before init() runs, so init()
  // receives typed, defaulted values and never has to check them again.
  configSchema: pluginOptionsSchema,
  // What this plugin needs from the kernel, asked for by typed token. The kernel checks that
  // every dependency exists before starting anything and hands them over in `deps`.
  deps: { logger: tokens.logger },

  // Runs once per configured instance at start-up. Do cheap set-up here and return the provider;
  // nothing here should reach a source, because sources are configured later, at run time.
  init({ options, instanceId, deps, signal: shutdown }) {
    // The kernel's logger, labelled with this instance so that two feeds' logs can be told apart.
    // (The context also offers `logger`, already labelled: use either, never console.log.)
    const logger = deps.logger.child({ plugin: instanceId });

    const provider: ConnectorProvider<FeedSourceConfig> = {
      // The `type` of connector and integration records this plugin serves: what an API user puts
      // in `{"type": "json-feed", "config": {...}}`. Unique across all connector plugins.
      type: 'json-feed',
      displayName: 'JSON Lines feed',
      // `integration`: an external system feeding documents in; `connector`: a local path.
      sourceKind: 'integration',
      sourceConfigSchema: feedSourceConfigSchema,
      // Config keys holding secrets (API tokens, passwords): DocQA stores them encrypted and shows
      // them as "***". A file path is no secret, so there are none.
      secretFields: [],
      // Promises the rest of DocQA relies on, checked by the conformance suite. Declare only what
      // sync() really does: nobody probes for features by catching errors.
      capabilities: {
        incremental: true, // sync(cursor) yields only records whose updated_at is after the cursor
        deletions: true, // records marked "deleted" become delete events
        acls: true, // a record's "groups" become the document's access-control list
        // No `storage`: DocQA does not write into a feed. A connector whose source can take files
        // (a directory) declares `storage: true` and implements openStorage(); see
        // plugins/connector-filesystem/src/storage.ts.
      },
      // Called for each connector record when it syncs; `config` has passed sourceConfigSchema.
      async open(config, context): Promise<ConnectorSource> {
        return {
          sync(cursor, signal) {
            // Stop both when the job is cancelled and when the server shuts down.
            const stop = AbortSignal.any([signal, shutdown]);
            return syncFeed(
              { config, maxDocuments: options.maxDocuments, instanceId, sourceId: context.sourceId, logger },
              cursor,
              stop,
            );
          },
          // No close(): every sync opens and closes its own file. A connector holding a client or
          // a connection per source releases it in close().
        };
      },
    };
    // Nothing to release at shutdown either. A plugin owning a pool, a timer or a child process
    // registers its cleanup with the context's onStop(), which the kernel runs in reverse start order.
    return provider;
  },
});
