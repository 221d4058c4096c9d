import type { AnyPlugin } from './define-plugin.js';
import type { AnyModule } from './define-module.js';

/**
 * One plugin instance to load: the plugin itself, or a module specifier whose default export is
 * one (a package name, or a path relative to the configuration file).
 */
export interface PluginEntry {
  plugin: AnyPlugin | string;
  /** Instance id; defaults to the plugin id. Needed when one plugin runs as several instances. */
  instance?: string;
  options?: unknown;
}

export interface PresetContext {
  /** A validated configuration variable, such as `LLM_BACKEND`. */
  variable(name: string): unknown;
}

/**
 * An edition: the plugins it loads and their options, chosen from configuration. Partners ship a
 * preset instead of forking the kernel.
 */
export interface Preset {
  id: string;
  description: string;
  plugins(context: PresetContext): PluginEntry[];
  /** Domain modules the edition adds to the application's (its own areas, rule packs, defaults). */
  modules?(context: PresetContext): AnyModule[];
  /** Ids of the application's modules the edition leaves out; what depends on them must go too. */
  withoutModules?: readonly string[];
}

export function definePreset(preset: Preset): Preset {
  return Object.freeze(preset);
}
