import { defineModule, tokens } from '@docqa/plugin-api';
import { licenseTokens } from '../license/contract.js';
import { groupsTokens } from './contract.js';
import { StoredGroups } from './groups-service.js';
import { groupMigrations } from './migrations.js';

/**
 * Groups and per-resource access (docs/authentication.md). Its tables reference the users' table,
 * whose migrations are the application's and run first.
 */
export const groupsModule = defineModule({
  id: 'groups',
  deps: { db: tokens.db, license: licenseTokens.service },
  provides: { service: groupsTokens.service },
  migrations: groupMigrations,
  init: ({ deps }) => ({ service: new StoredGroups(deps.db, () => deps.license.plan()) }),
});
