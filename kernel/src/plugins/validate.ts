import {
  pluginApiVersion,
  pluginKinds,
  providerTokens,
  tokens,
  type AnyPlugin,
  type PluginKind,
  type Token,
} from '@docqa/plugin-api';
import type { ResolvedEntry } from './resolve.js';

export interface PluginPlanItem {
  instanceId: string;
  plugin: AnyPlugin;
  options: unknown;
}

const coreTokenKeys = new Set(Object.values(tokens).map((token) => token.key));
const kindByTokenKey = new Map<symbol, PluginKind>(pluginKinds.map((kind) => [providerTokens[kind].key, kind]));

/**
 * Checks every entry before any plugin runs: the module loaded, the contract version, unique
 * instance ids, one provider for single-provider kinds, options against each plugin's schema, and
 * dependencies that something provides. Returns the instances in an order where each comes after
 * the kinds it depends on, or every problem found, each naming its plugin instance.
 */
export function planPlugins(entries: ResolvedEntry[]): { plan: PluginPlanItem[]; problems: string[] } {
  const problems: string[] = [];
  const valid: PluginPlanItem[] = [];
  const seenInstances = new Map<string, string>();
  const singleProviders = new Map<PluginKind, string>();

  for (const entry of entries) {
    const pluginId = entry.plugin ? ` (${entry.plugin.id})` : '';
    const name = `plugin instance '${entry.instanceId}'${pluginId} from ${entry.origin}`;
    if (entry.problem || !entry.plugin) {
      problems.push(`${name}: ${entry.problem ?? 'no plugin'}`);
      continue;
    }
    const plugin = entry.plugin;
    let ok = true;
    if (plugin.apiVersion !== pluginApiVersion) {
      problems.push(
        `${name}: written for plugin API version ${String(plugin.apiVersion)}, ` +
          `this kernel runs version ${pluginApiVersion}`,
      );
      ok = false;
    }
    if (!pluginKinds.includes(plugin.kind)) {
      problems.push(`${name}: unknown kind '${String(plugin.kind)}' (known: ${pluginKinds.join(', ')})`);
      ok = false;
    }
    const earlier = seenInstances.get(entry.instanceId);
    if (earlier) {
      problems.push(
        `${name}: instance id '${entry.instanceId}' is already used by ${earlier}; give one of them another "instance"`,
      );
      ok = false;
    }
    seenInstances.set(entry.instanceId, name);
    if (ok && !providerTokens[plugin.kind].multi) {
      const first = singleProviders.get(plugin.kind);
      if (first) {
        problems.push(
          `${name}: a second ${plugin.kind} plugin; ${first} already provides the ` +
            `one ${plugin.kind} DocQA uses. Disable one of them.`,
        );
        ok = false;
      } else {
        singleProviders.set(plugin.kind, name);
      }
    }
    const parsed = plugin.configSchema.safeParse(entry.options ?? {});
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const where = issue.path.length > 0 ? `option '${issue.path.join('.')}'` : 'options';
        problems.push(`${name}: ${where}: ${issue.message}`);
      }
      ok = false;
    }
    if (ok && parsed.success) valid.push({ instanceId: entry.instanceId, plugin, options: parsed.data });
  }

  const providedKinds = new Set(valid.map((item) => item.plugin.kind));
  for (const item of valid) {
    for (const [depName, token] of Object.entries(item.plugin.deps) as Array<[string, Token<unknown>]>) {
      if (coreTokenKeys.has(token.key)) continue;
      const kind = kindByTokenKey.get(token.key);
      if (!kind) {
        problems.push(
          `plugin instance '${item.instanceId}' (${item.plugin.id}): dependency '${depName}' asks for ` +
            `'${token.id}', which neither the kernel nor any plugin kind provides`,
        );
      } else if (!token.multi && !token.optional && !providedKinds.has(kind)) {
        problems.push(
          `plugin instance '${item.instanceId}' (${item.plugin.id}): dependency ` +
            `'${depName}' needs a ${kind} plugin, and none is configured`,
        );
      }
    }
  }
  if (problems.length > 0) return { plan: [], problems };
  return orderByDependencies(valid);
}

function kindDependencies(plugin: AnyPlugin): PluginKind[] {
  return Object.values(plugin.deps)
    .map((token) => kindByTokenKey.get(token.key))
    .filter((kind): kind is PluginKind => kind !== undefined && kind !== plugin.kind);
}

function orderByDependencies(items: PluginPlanItem[]): { plan: PluginPlanItem[]; problems: string[] } {
  const plan: PluginPlanItem[] = [];
  const remaining = [...items];
  while (remaining.length > 0) {
    // A kind counts as ready once every plugin of that kind has been placed.
    const ready = remaining.filter((item) =>
      kindDependencies(item.plugin).every(
        (kind) => !remaining.some((other) => other !== item && other.plugin.kind === kind),
      ),
    );
    if (ready.length === 0) {
      const names = remaining.map(
        (item) => `'${item.instanceId}' (${item.plugin.id}) needs ${kindDependencies(item.plugin).join(', ')}`,
      );
      return { plan: [], problems: [`plugin dependency cycle: ${names.join('; ')}`] };
    }
    for (const item of ready) {
      plan.push(item);
      remaining.splice(remaining.indexOf(item), 1);
    }
  }
  return { plan, problems: [] };
}
