import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import {
  isPluginDefinition,
  type AnyPlugin,
  type PluginEntry,
  type Preset,
  type PresetContext,
} from '@docqa/plugin-api';

/** A plugin entry whose module has been imported; `problem` is set when that failed. */
export interface ResolvedEntry {
  instanceId: string;
  plugin: AnyPlugin | null;
  options: unknown;
  /** Where the entry came from, for error messages: `preset standard`, `docqa.config.json`. */
  origin: string;
  problem?: string;
}

export interface PluginFile {
  plugins?: Array<{ use: string; instance?: string; options?: unknown }>;
  /** Instance ids of the preset to leave out. */
  disable?: string[];
  /** Options for the preset's own instances, by instance id, merged over the preset's. */
  configure?: Record<string, Record<string, unknown>>;
}

/** Reads the plugin configuration file; a missing default file is fine, a named one must exist. */
export function readPluginFile(file: string | undefined, cwd: string): { path: string | null; content: PluginFile } {
  const explicit = file !== undefined;
  const target = path.resolve(cwd, file ?? 'docqa.config.json');
  if (!fs.existsSync(target)) {
    if (explicit) throw new Error(`DOCQA_CONFIG_FILE="${file}" does not exist`);
    return { path: null, content: {} };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(target, 'utf8'));
  } catch (error) {
    throw new Error(`${target} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${target} must hold a JSON object`);
  const content = parsed as PluginFile;
  if (
    content.plugins !== undefined &&
    (!Array.isArray(content.plugins) || content.plugins.some((p) => typeof p?.use !== 'string'))
  ) {
    throw new Error(`${target}: "plugins" must be a list of {"use": "<module>", "instance"?, "options"?}`);
  }
  if (
    content.disable !== undefined &&
    (!Array.isArray(content.disable) || content.disable.some((d) => typeof d !== 'string'))
  ) {
    throw new Error(`${target}: "disable" must be a list of instance ids`);
  }
  if (
    content.configure !== undefined &&
    (typeof content.configure !== 'object' ||
      content.configure === null ||
      Array.isArray(content.configure) ||
      Object.values(content.configure).some((o) => typeof o !== 'object' || o === null || Array.isArray(o)))
  ) {
    throw new Error(`${target}: "configure" must map instance ids to option objects`);
  }
  return { path: target, content };
}

/**
 * A path is taken relative to the configuration file. A package name is looked up from the
 * configuration file's folder first (a plugin installed beside it), then from DocQA's own.
 */
function locate(specifier: string, baseDir: string): string {
  if (specifier.startsWith('.') || path.isAbsolute(specifier))
    return pathToFileURL(path.resolve(baseDir, specifier)).href;
  try {
    return pathToFileURL(createRequire(path.join(baseDir, 'docqa.config.json')).resolve(specifier)).href;
  } catch {
    return specifier;
  }
}

export async function importPlugin(specifier: string, baseDir: string): Promise<AnyPlugin> {
  const target = locate(specifier, baseDir);
  const module = (await import(target)) as { default?: unknown; plugin?: unknown };
  const candidate = module.default ?? module.plugin;
  if (!isPluginDefinition(candidate)) {
    throw new Error(`module '${specifier}' has no plugin as its default export (use definePlugin)`);
  }
  return candidate;
}

/** Collects the preset's entries and the file's, imports every module, and notes what failed. */
export async function resolveEntries(
  preset: Preset,
  context: PresetContext,
  file: { path: string | null; content: PluginFile },
): Promise<ResolvedEntry[]> {
  const baseDir = file.path ? path.dirname(file.path) : process.cwd();
  const disabled = new Set(file.content.disable ?? []);
  const configure = file.content.configure ?? {};
  const unused = new Set(Object.keys(configure));
  const wanted: Array<PluginEntry & { origin: string; fromPreset: boolean }> = [
    ...preset.plugins(context).map((entry) => ({ ...entry, origin: `preset ${preset.id}`, fromPreset: true })),
    ...(file.content.plugins ?? []).map((entry) => ({
      plugin: entry.use,
      instance: entry.instance,
      options: entry.options,
      origin: file.path ?? 'plugin file',
      fromPreset: false,
    })),
  ];
  const resolved: ResolvedEntry[] = [];
  for (const entry of wanted) {
    const named = typeof entry.plugin === 'string' ? entry.plugin : entry.plugin.id;
    // `disable` and `configure` speak of the preset's instances; the file's own are edited in place.
    const skip = (instanceId: string) => entry.fromPreset && disabled.has(instanceId);
    const optionsOf = (instanceId: string) => {
      if (!entry.fromPreset || !configure[instanceId]) return entry.options ?? {};
      unused.delete(instanceId);
      return { ...(entry.options as Record<string, unknown> | undefined), ...configure[instanceId] };
    };
    if (typeof entry.plugin !== 'string') {
      const instanceId = entry.instance ?? entry.plugin.id;
      if (!skip(instanceId))
        resolved.push({ instanceId, plugin: entry.plugin, options: optionsOf(instanceId), origin: entry.origin });
      continue;
    }
    const fallbackId = entry.instance ?? path.basename(entry.plugin);
    try {
      const plugin = await importPlugin(entry.plugin, baseDir);
      const instanceId = entry.instance ?? plugin.id;
      if (skip(instanceId)) continue;
      resolved.push({ instanceId, plugin, options: optionsOf(instanceId), origin: entry.origin });
    } catch (error) {
      resolved.push({
        instanceId: fallbackId,
        plugin: null,
        options: entry.options,
        origin: entry.origin,
        problem: `cannot load '${named}': ${(error as Error).message}`,
      });
    }
  }
  for (const instanceId of unused) {
    resolved.push({
      instanceId,
      plugin: null,
      options: undefined,
      origin: file.path ?? 'plugin file',
      problem: `"configure" names it, but preset ${preset.id} has no such instance`,
    });
  }
  return resolved;
}
