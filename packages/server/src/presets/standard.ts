import { definePreset } from '@docqa/plugin-api';
import emailConsole from '@docqa/plugin-email-console';
import emailSmtp, { smtpOptionsFromVariables } from '@docqa/plugin-email-smtp';
import vectorstorePgvector from '@docqa/plugin-vectorstore-pgvector';

/**
 * The standard self-hosted edition. Plugins of other kinds join this list as they are built;
 * backends chosen by configuration (LLM_BACKEND, EMAIL_PROVIDER) are picked here from the context.
 */
export const standardPreset = definePreset({
  id: 'standard',
  description: 'Standard self-hosted DocQA: PostgreSQL with pgvector; email by EMAIL_PROVIDER.',
  plugins: ({ variable }) => [
    { plugin: vectorstorePgvector },
    variable('EMAIL_PROVIDER') === 'smtp' ? { plugin: emailSmtp, options: smtpOptionsFromVariables(variable) } : { plugin: emailConsole },
  ],
});

export const presets = { standard: standardPreset };
