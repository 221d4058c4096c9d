import type { z } from 'zod';
import type { Token, TokenValue } from './tokens.js';
import type { PluginKind, ProviderKinds } from './core-tokens.js';
import type { Logger } from './services.js';

/** The contract version this package describes; the kernel refuses plugins written for another. */
export const pluginApiVersion = 1 as const;

export type DepsMap = Record<string, Token<unknown>>;

export type ResolvedDeps<D extends DepsMap> = {
  [K in keyof D]: D[K] extends Token<infer T> ? (D[K]['multi'] extends true ? T[] : T) : never;
};

export interface PluginInitContext<Options, Deps> {
  /** This instance's options, already validated against the plugin's configSchema. */
  options: Options;
  /** The configured instance id; equals the plugin id unless several instances run. */
  instanceId: string;
  deps: Deps;
  /** A logger bound to this plugin instance. */
  logger: Logger;
  /** Register cleanup run at shutdown, in reverse order of start. */
  onStop(hook: () => Promise<void> | void): void;
  /** Aborted when the kernel shuts down. */
  signal: AbortSignal;
}

/** SQL a plugin needs in the database, applied by the kernel's migrator with the core's own. */
export interface PluginMigration {
  /** Unique within the plugin and sortable: `0001_create_vectors`. */
  name: string;
  up: readonly string[];
  down?: readonly string[];
}

export interface PluginDefinition<K extends PluginKind, S extends z.ZodType, D extends DepsMap> {
  apiVersion: typeof pluginApiVersion;
  kind: K;
  /** `<kind>-<name>`, such as `connector-filesystem`. */
  id: string;
  description?: string;
  configSchema: S;
  deps: D;
  migrations?: readonly PluginMigration[];
  init(context: PluginInitContext<z.output<S>, ResolvedDeps<D>>): Promise<ProviderKinds[K]> | ProviderKinds[K];
}

// The kernel handles plugins of every kind and schema through this erased shape.
export type AnyPlugin = PluginDefinition<PluginKind, z.ZodType, DepsMap>;

const pluginIdPattern = /^[a-z][a-z0-9]*(-[a-z0-9]+)+$/;

/**
 * Declares a plugin. Nothing runs here: the kernel validates options and dependencies of every
 * configured plugin before it calls any `init`.
 */
export function definePlugin<K extends PluginKind, S extends z.ZodType, D extends DepsMap>(
  definition: PluginDefinition<K, S, D>,
): PluginDefinition<K, S, D> {
  if (!pluginIdPattern.test(definition.id)) {
    throw new TypeError(`Plugin id '${definition.id}' must look like '<kind>-<name>' in lower case`);
  }
  return Object.freeze(definition);
}

export function isPluginDefinition(value: unknown): value is AnyPlugin {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<AnyPlugin>;
  return (
    typeof v.id === 'string' &&
    typeof v.kind === 'string' &&
    typeof v.init === 'function' &&
    v.configSchema !== undefined
  );
}

export type { TokenValue };
