import type { DepsMap, ResolvedDeps } from './define-plugin.js';
import type { Logger, QueueOptions } from './services.js';
import type { Token } from './tokens.js';

/** SQL a module needs in the database; applied by the kernel's migrator in the modules' order. */
export interface ModuleMigration {
  /** Unique across the installation and never renamed: the migrations table remembers it. */
  name: string;
  up: readonly string[];
  down?: readonly string[];
}

/** What a module offers: a name for each value and the token others ask for it by. */
export type ProvidesMap = Record<string, Token<unknown>>;

export type ProvidedValues<P extends ProvidesMap> = { [K in keyof P]: P[K] extends Token<infer T> ? T : never };

export interface ModuleContext<Deps> {
  deps: Deps;
  /** A logger bound to the module. */
  logger: Logger;
  /** Cleanup run at shutdown, in reverse order of start. */
  onStop(hook: () => Promise<void> | void): void;
  /** Aborted when the kernel shuts down. */
  signal: AbortSignal;
}

/** What a module's start hooks get: its own dependencies and what its `init` returned. */
export interface ModuleHookContext<Deps, Provided> extends ModuleContext<Deps> {
  provided: Provided;
}

/**
 * A domain module: the same discipline as a plugin, for DocQA's own areas (identity, documents,
 * search…) and for what an edition adds. It names what it needs (`deps`, typed tokens of the kernel,
 * of plugin kinds or of other modules) and what it offers (`provides`); the kernel plans every
 * module with the plugins, reports each missing dependency or cycle before anything starts, and
 * starts modules in dependency order. Nothing runs at definition.
 */
export interface ModuleDefinition<D extends DepsMap, P extends ProvidesMap> {
  /** Lower case, such as `branding` or `edition-legal-rules`. */
  id: string;
  description?: string;
  deps: D;
  provides: P;
  migrations?: readonly ModuleMigration[];
  /** Job queues the module sends to or works, declared in every process before any module starts. */
  queues?: Readonly<Record<string, QueueOptions>>;
  /** Builds the module's services; every one named in `provides` must be in what it returns. */
  init(context: ModuleContext<ResolvedDeps<D>>): Promise<ProvidedValues<P>> | ProvidedValues<P>;
  /** After every module's init, in dependency order, in every process (API and worker). */
  onStart?(context: ModuleHookContext<ResolvedDeps<D>, ProvidedValues<P>>): Promise<void> | void;
  /** After every onStart, in processes that run jobs (DOCQA_ROLE worker or all): handlers, sweeps. */
  onWorkerStart?(context: ModuleHookContext<ResolvedDeps<D>, ProvidedValues<P>>): Promise<void> | void;
}

// The kernel handles modules of every shape through this erased one.
export type AnyModule = ModuleDefinition<DepsMap, ProvidesMap>;

const moduleIdPattern = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

export function defineModule<D extends DepsMap, P extends ProvidesMap>(definition: ModuleDefinition<D, P>): AnyModule {
  if (!moduleIdPattern.test(definition.id)) {
    throw new TypeError(`Module id '${definition.id}' must be lower case words joined by '-'`);
  }
  return Object.freeze(definition) as unknown as AnyModule;
}

export function isModuleDefinition(value: unknown): value is AnyModule {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<AnyModule>;
  return (
    typeof candidate.id === 'string' &&
    typeof candidate.init === 'function' &&
    typeof candidate.provides === 'object' &&
    typeof candidate.deps === 'object'
  );
}
