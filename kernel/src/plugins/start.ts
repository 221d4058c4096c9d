import { DocqaError, providerTokens, type ConnectorProvider, type Logger, type Token } from '@docqa/plugin-api';
import type { Container } from '../container.js';
import { StopHooks } from '../stop-hooks.js';
import type { PluginPlanItem } from './validate.js';

export interface StartedPlugins {
  instances: Array<{ instanceId: string; pluginId: string; kind: string }>;
  stop(): Promise<void>;
}

/**
 * Calls each plugin's init in plan order and registers what it returns under its kind's token.
 * If one fails, the ones already started are stopped again and the failure names the instance.
 */
export async function startPlugins(
  plan: PluginPlanItem[],
  container: Container,
  logger: Logger,
): Promise<StartedPlugins> {
  const stopHooks = new StopHooks(logger, 'plugin');
  const instances: StartedPlugins['instances'] = [];
  const connectorTypes = new Map<string, string>();
  const stop = () => stopHooks.run();

  for (const item of plan) {
    const deps: Record<string, unknown> = {};
    for (const [name, token] of Object.entries(item.plugin.deps) as Array<[string, Token<unknown>]>) {
      deps[name] = container.resolveDependency(token);
    }
    try {
      const provider = await item.plugin.init({
        options: item.options,
        instanceId: item.instanceId,
        deps: deps as never,
        logger: logger.child({ plugin: item.instanceId }),
        onStop: (hook) => stopHooks.add(item.instanceId, hook),
        signal: stopHooks.signal,
      });
      if (item.plugin.kind === 'connector')
        refuseDuplicateConnectorType(provider as ConnectorProvider, item, connectorTypes);
      container.register(providerTokens[item.plugin.kind] as Token<unknown>, provider);
      instances.push({ instanceId: item.instanceId, pluginId: item.plugin.id, kind: item.plugin.kind });
    } catch (error) {
      await stop();
      throw new DocqaError(
        'plugin_failed',
        `Plugin error: plugin instance '${item.instanceId}' ` +
          `(${item.plugin.id}) failed to start: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  return { instances, stop };
}

/** Connector records name their plugin by `type`, so two plugins serving one type would be ambiguous. */
function refuseDuplicateConnectorType(
  provider: ConnectorProvider,
  item: PluginPlanItem,
  seen: Map<string, string>,
): void {
  const owner = seen.get(provider.type);
  if (owner) throw new Error(`its connector type '${provider.type}' is already served by plugin instance '${owner}'`);
  seen.set(provider.type, item.instanceId);
}
