import { providerTokens, tokens, type AnyModule, type PluginKind, type Token } from '@docqa/plugin-api';
import type { PluginPlanItem } from '../plugins/validate.js';

const coreTokenKeys = new Set(Object.values(tokens).map((token) => token.key));
const kindByTokenKey = new Map<symbol, PluginKind>(
  (Object.keys(providerTokens) as PluginKind[]).map((kind) => [providerTokens[kind].key, kind]),
);

/**
 * Checks every module against the kernel's services, the planned plugins and the other modules,
 * and orders them so each starts after the modules it depends on. Every problem is reported at
 * once, each naming its module: a duplicate id, a token two places provide, a dependency nothing
 * provides, a plugin kind none is configured for, a cycle.
 */
export function planModules(
  modules: readonly AnyModule[],
  plugins: readonly PluginPlanItem[],
): { plan: AnyModule[]; problems: string[] } {
  const problems: string[] = [];
  const providers = new Map<symbol, { module: AnyModule; token: Token<unknown> }>();
  const seen = new Set<string>();
  for (const module of modules) {
    if (seen.has(module.id)) problems.push(`module '${module.id}': defined twice; a module id is unique`);
    seen.add(module.id);
    for (const token of Object.values(module.provides)) {
      const owner = coreTokenKeys.has(token.key)
        ? 'the kernel'
        : kindByTokenKey.has(token.key)
          ? 'a plugin kind'
          : providers.get(token.key)?.module.id;
      if (owner)
        problems.push(
          `module '${module.id}': provides '${token.id}', which ` +
            `${owner === 'the kernel' || owner === 'a plugin kind' ? owner : `module '${owner}'`} ` +
            'provides already',
        );
      else providers.set(token.key, { module, token });
    }
  }
  const configuredKinds = new Set(plugins.map((item) => item.plugin.kind));
  const needs = new Map<AnyModule, AnyModule[]>();
  for (const module of modules) {
    const upstream: AnyModule[] = [];
    for (const [name, token] of Object.entries(module.deps)) {
      if (coreTokenKeys.has(token.key)) continue;
      const kind = kindByTokenKey.get(token.key);
      if (kind) {
        if (!token.multi && !token.optional && !configuredKinds.has(kind))
          problems.push(`module '${module.id}': dependency '${name}' needs a ${kind} plugin, and none is configured`);
        continue;
      }
      const provider = providers.get(token.key);
      if (!provider && !token.optional)
        problems.push(
          `module '${module.id}': dependency '${name}' asks for '${token.id}', which ` +
            'neither the kernel, a plugin kind nor any module provides',
        );
      else if (provider && provider.module !== module) upstream.push(provider.module);
    }
    needs.set(module, upstream);
  }
  if (problems.length > 0) return { plan: [], problems };
  return orderModules(modules, needs);
}

/** Kahn's order, stable in the given order; what is left over holds a cycle, which is named. */
function orderModules(
  modules: readonly AnyModule[],
  needs: Map<AnyModule, AnyModule[]>,
): { plan: AnyModule[]; problems: string[] } {
  const plan: AnyModule[] = [];
  const placed = new Set<AnyModule>();
  let remaining = [...modules];
  while (remaining.length > 0) {
    const ready = remaining.filter((module) => (needs.get(module) ?? []).every((upstream) => placed.has(upstream)));
    if (ready.length === 0)
      return { plan: [], problems: [`module dependency cycle: ${describeCycle(remaining, needs)}`] };
    for (const module of ready) {
      plan.push(module);
      placed.add(module);
    }
    remaining = remaining.filter((module) => !placed.has(module));
  }
  return { plan, problems: [] };
}

function describeCycle(remaining: AnyModule[], needs: Map<AnyModule, AnyModule[]>): string {
  // Every module left waits for another one left: walking from any of them returns to a module seen.
  const path: AnyModule[] = [];
  let current = remaining[0] as AnyModule;
  while (!path.includes(current)) {
    path.push(current);
    current = (needs.get(current) ?? []).find((upstream) => remaining.includes(upstream)) as AnyModule;
  }
  const cycle = [...path.slice(path.indexOf(current)), current];
  return cycle.map((module) => `'${module.id}'`).join(' → ');
}
