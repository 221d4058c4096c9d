/**
 * The git integration: indexes the files of one branch of a repository reached over smart HTTP,
 * with isomorphic-git (no git binary needed). The first sync clones (depth 1); later syncs fetch
 * and diff the previous commit's tree against the new one. See sync.ts and the README.
 */
import { definePlugin, tokens, type ConnectorProvider, type ConnectorSource } from '@docqa/plugin-api';
import { gitSourceConfigSchema, pluginOptionsSchema, type GitSourceConfig } from './config.js';

export default definePlugin({
  apiVersion: 1,
  kind: 'connector',
  id: 'integration-git',
  description: 'Indexes a branch of a git repository over HTTP(S), incrementally by commit.',
  configSchema: pluginOptionsSchema,
  deps: { logger: tokens.logger, outbound: tokens.outbound },

  init({ options, instanceId, deps, signal: shutdown }) {
    const logger = deps.logger.child({ plugin: instanceId });
    // The process's policy (OUTBOUND_ALLOW) with what this plugin's option allows on top.
    const guard = deps.outbound.extend(options.outboundAllow ?? [], `the outboundAllow option of ${instanceId}`);
    // One sync at a time per working clone: two fetches into the same directory would corrupt it.
    const busy = new Map<string, Promise<void>>();

    const provider: ConnectorProvider<GitSourceConfig> = {
      type: 'git',
      displayName: 'Git repository',
      sourceKind: 'integration',
      sourceConfigSchema: gitSourceConfigSchema,
      secretFields: ['token'],
      capabilities: {
        incremental: true, // the cursor is a commit; the next sync diffs against it
        deletions: true, // files removed (or renamed away) since that commit are deleted
        acls: false, // git has no per-file access control
      },
      async open(config, context): Promise<ConnectorSource> {
        // Imported at the first sync: isomorphic-git holds about 15 MB of resident memory, which a
        // process that has no git integration should not pay for.
        const { syncRepository } = await import('./sync.js');
        const { WorkingClone } = await import('./working-clone.js');
        const clone = new WorkingClone(options.stateDir, context.sourceId, config, guard);
        return {
          async *sync(cursor, signal) {
            const stop = AbortSignal.any([signal, shutdown]);
            stop.throwIfAborted();
            const previous = busy.get(clone.dir);
            let release!: () => void;
            const mine = new Promise<void>((resolve) => (release = resolve));
            busy.set(clone.dir, mine);
            try {
              await previous;
              yield* syncRepository({ config, clone, sourceId: context.sourceId, logger }, cursor, stop);
            } finally {
              release();
              if (busy.get(clone.dir) === mine) busy.delete(clone.dir);
            }
          },
          // No close(): the working clone is the state the next sync needs; documents read from it.
        };
      },
    };
    return provider;
  },
});
