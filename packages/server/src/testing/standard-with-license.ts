import type { PluginEntry, PresetContext } from '@docqa/plugin-api';
import { standardPreset } from '../presets/standard.js';

/**
 * The standard preset's plugins with its license gate (if it has one) replaced by `license`: a
 * single-provider kind, so a test that brings its own gate must leave the preset's out.
 */
export function standardPluginsWithLicense(
  context: PresetContext,
  license: PluginEntry,
  extra: PluginEntry[] = [],
): PluginEntry[] {
  return [...withoutLicenseGate(standardPreset.plugins(context)), ...extra, license];
}

/** The standard preset's plugins without its license gate, for tests that add their own. */
export function withoutLicenseGate(entries: PluginEntry[]): PluginEntry[] {
  return entries.filter((entry) => typeof entry.plugin === 'string' || entry.plugin.kind !== 'licenseGate');
}
