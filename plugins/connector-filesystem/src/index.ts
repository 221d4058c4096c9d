/**
 * The filesystem connector: indexes a directory on the server, inside the directories the operator
 * allows (CONNECTOR_ALLOWED_PATHS). Read config.ts (options and source config), allowed-root.ts
 * (the security border), sync.ts (what a sync yields), walk.ts, state-file.ts, file-document.ts, and
 * storage.ts (writing into the directory: uploads, moves and deletes that name the connector).
 */
import { definePlugin, tokens, type ConnectorProvider, type ConnectorSource } from '@docqa/plugin-api';
import { resolveSourceRoot } from './allowed-root.js';
import { directorySourceConfigSchema, pluginOptionsSchema, type DirectorySourceConfig } from './config.js';
import { stateFilePath } from './state-file.js';
import { directoryStorage } from './storage.js';
import { syncDirectory } from './sync.js';

export {
  directorySourceConfigSchema,
  pluginOptionsSchema,
  type DirectorySourceConfig,
  type PluginOptions,
} from './config.js';

export default definePlugin({
  apiVersion: 1,
  kind: 'connector',
  id: 'connector-filesystem',
  description: 'Indexes directories on the server inside CONNECTOR_ALLOWED_PATHS.',
  configSchema: pluginOptionsSchema,
  deps: { logger: tokens.logger },

  init({ options, instanceId, deps, signal: shutdown }) {
    const logger = deps.logger.child({ plugin: instanceId });

    const provider: ConnectorProvider<DirectorySourceConfig> = {
      type: 'filesystem',
      displayName: 'Directory',
      sourceKind: 'connector',
      sourceConfigSchema: directorySourceConfigSchema,
      secretFields: [],
      capabilities: {
        incremental: true, // the state file tells what the previous sync saw
        deletions: true, // files gone since then become delete events
        acls: false, // file permissions are not mapped to DocQA groups
        storage: true, // uploads, moves and deletes that name the connector change the directory (storage.ts)
      },
      // The API calls open() on create and update too: a path outside the allowed directories is
      // refused there, before any sync, with the allowed directories in the message.
      async open(config, context): Promise<ConnectorSource> {
        await resolveSourceRoot(config.path, options.allowedPaths);
        return {
          async *sync(cursor, signal) {
            const stop = AbortSignal.any([signal, shutdown]);
            stop.throwIfAborted();
            // Resolved again for every sync: a source opened once may sync for months, and its
            // directory may have been replaced by a link in the meantime.
            const root = await resolveSourceRoot(config.path, options.allowedPaths);
            const settings = {
              root,
              config,
              sourceId: context.sourceId,
              stateFile: stateFilePath(options.stateDir, context.sourceId),
              maxFileBytes: options.maxFileBytes,
              logger,
            };
            yield* syncDirectory(settings, cursor, stop);
          },
          // No close(): every sync opens and closes its own directory and file handles.
        };
      },
      async openStorage(config) {
        await resolveSourceRoot(config.path, options.allowedPaths);
        return directoryStorage({
          configuredPath: config.path,
          allowedPaths: options.allowedPaths,
          config,
          maxFileBytes: options.maxFileBytes,
        });
      },
    };
    return provider;
  },
});
