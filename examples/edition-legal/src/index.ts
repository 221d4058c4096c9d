import { definePreset, type PluginEntry } from '@docqa/plugin-api';
import { standardPreset } from '@docqa/server';
import feedConnector from '@docqa/example-connector-template';
import { legalModule } from './legal-module.js';

export { legalTokens, type LegalRulePack } from './contract.js';
export { legalRules } from './rule-pack.js';

/** Plugins of the standard edition a legal team does not use: object stores and source repositories. */
const notForLegal = new Set(['integration-s3', 'integration-git']);

/**
 * DocQA Legal: the standard edition without the S3 and git integrations, with the matter-management
 * feed connector, and the legal module (rule pack, its analytics, the edition's branding). Loaded by
 * configuration alone: DOCQA_PRESET=@docqa/example-edition-legal.
 */
const legalEdition = definePreset({
  id: 'legal',
  description: 'DocQA for legal teams: standard DocQA with a legal rule pack and a matter feed, without S3 and git.',
  plugins: (context) => [
    ...standardPreset.plugins(context).filter((entry: PluginEntry) => !notForLegal.has(pluginId(entry))),
    { plugin: feedConnector, instance: 'matter-feed' },
  ],
  modules: () => [legalModule],
});

function pluginId(entry: PluginEntry): string {
  return typeof entry.plugin === 'string' ? entry.plugin : (entry.instance ?? entry.plugin.id);
}

export default legalEdition;
