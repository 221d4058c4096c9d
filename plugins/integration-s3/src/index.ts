/**
 * The S3 integration: indexes the objects of a bucket in any S3-compatible store (AWS S3, MinIO,
 * Ceph, Cloudflare R2, …). Changes are found by comparing each listing with the previous one (see
 * sync-state.ts); the bytes are streamed from the store only when the pipeline reads a document.
 *
 * Files: config.ts (options and source config), sync.ts (one sync), listing.ts (ListObjectsV2 pages),
 * object-filter.ts (prefix, include, size), sync-state.ts (state file and cursor),
 * object-document.ts (object → document), s3-client.ts (client and error messages).
 */
import { definePlugin, tokens, type ConnectorProvider, type ConnectorSource } from '@docqa/plugin-api';
import { pluginOptionsSchema, s3SourceConfigSchema, type S3SourceConfig } from './config.js';
import { stateFilePath } from './sync-state.js';

export { pluginOptionsSchema, s3SourceConfigSchema, type S3SourceConfig } from './config.js';

export default definePlugin({
  apiVersion: 1,
  kind: 'connector',
  id: 'integration-s3',
  description: 'Indexes the objects of a bucket in AWS S3 or any S3-compatible store.',
  configSchema: pluginOptionsSchema,
  deps: { logger: tokens.logger, outbound: tokens.outbound },

  // Nothing here reaches a store: buckets are configured at run time, per integration record.
  init({ options, instanceId, deps, signal: shutdown }) {
    const logger = deps.logger.child({ plugin: instanceId });
    // The process's policy (OUTBOUND_ALLOW) with what this plugin's option allows on top.
    const guard = deps.outbound.extend(options.outboundAllow ?? [], `the outboundAllow option of ${instanceId}`);

    const provider: ConnectorProvider<S3SourceConfig> = {
      type: 's3',
      displayName: 'S3-compatible bucket',
      sourceKind: 'integration',
      sourceConfigSchema: s3SourceConfigSchema,
      // Stored encrypted and answered as "***"; it never appears in errors or logs either.
      secretFields: ['secret_access_key'],
      capabilities: {
        incremental: true, // objects whose ETag, LastModified and size are unchanged are not announced again
        deletions: true, // objects gone from the listing (or no longer included) become deletes
        acls: false, // bucket policies and object ACLs do not map to DocQA groups
      },
      async open(config, context): Promise<ConnectorSource> {
        // Imported at the first sync: the AWS SDK holds about 24 MB of resident memory, which a
        // process that has no S3 integration should not pay for.
        const { createS3Client } = await import('./s3-client.js');
        const { syncBucket } = await import('./sync.js');
        // One client per source: its connection pool serves the listing and every document read.
        const client = createS3Client(config, guard);
        const stateFile = stateFilePath(options.stateDir, context.sourceId);
        return {
          sync(cursor, signal) {
            const stop = AbortSignal.any([signal, shutdown]);
            const settings = { client, config, stateFile, sourceId: context.sourceId, logger, shutdown, guard };
            return syncBucket(settings, cursor, stop);
          },
          async close() {
            client.destroy();
          },
        };
      },
    };
    return provider;
  },
});
