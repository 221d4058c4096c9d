import { defineModule, providerTokens, tokens } from '@docqa/plugin-api';
import { sourcesTokens } from './contract.js';
import { sourceMigrations } from './migrations.js';
import { StoredSources } from './stored-sources.js';

/**
 * Connectors and integrations as records (docs/documents-and-sources.md): their validated configs,
 * secrets sealed with MFA_ENCRYPTION_KEY.
 */
export const sourcesModule = defineModule({
  id: 'sources',
  deps: { db: tokens.db, config: tokens.config, connectors: providerTokens.connector },
  provides: { service: sourcesTokens.service },
  migrations: sourceMigrations,
  init: ({ deps }) => ({
    service: new StoredSources(deps.db, deps.connectors, String(deps.config.get('MFA_ENCRYPTION_KEY'))),
  }),
});
