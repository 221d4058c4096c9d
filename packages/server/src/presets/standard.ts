import { definePreset } from '@docqa/plugin-api';
import vectorstorePgvector from '@docqa/plugin-vectorstore-pgvector';

/**
 * The standard self-hosted edition. Plugins of other kinds join this list as they are built;
 * backends chosen by configuration (LLM_BACKEND, EMAIL_PROVIDER) are picked here from the context.
 */
export const standardPreset = definePreset({
  id: 'standard',
  description: 'Standard self-hosted DocQA: PostgreSQL with pgvector.',
  plugins: () => [{ plugin: vectorstorePgvector }],
});

export const presets = { standard: standardPreset };
