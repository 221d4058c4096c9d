import { defineModule, tokens } from '@docqa/plugin-api';
import { brandingTokens } from './contract.js';
import { BrandingStore } from './branding-store.js';
import { brandingMigrations } from './migrations.js';

/** Name, colours, texts and logo of the installation (docs/branding.md). */
export const brandingModule = defineModule({
  id: 'branding',
  deps: { db: tokens.db },
  provides: { service: brandingTokens.service },
  migrations: brandingMigrations,
  init: ({ deps }) => ({ service: new BrandingStore(deps.db) }),
});
