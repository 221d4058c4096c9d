import { defineModule, tokens, type AuditService, type Db, type Logger, type Plan } from '@docqa/plugin-api';
import { licenseTokens } from '../license/contract.js';
import { auditTokens } from './contract.js';
import { AuditStore } from './audit-store.js';
import { auditMigrations } from './migrations.js';

/** The append-only, hash-chained audit log (docs/audit-log.md): its tables, its queries, its purge. */
export const auditModule = defineModule({
  id: 'audit',
  deps: { db: tokens.db, logger: tokens.logger, license: licenseTokens.service },
  provides: { log: auditTokens.log },
  migrations: auditMigrations,
  init: ({ deps }) => ({ log: new AuditStore(deps.db, deps.logger, () => deps.license.plan()) }),
});

/**
 * The kernel's recorder (Kernel.start's `audit` option), made before any module starts, so plugins
 * can record too: events go to the log's table while `plan()` is ENTERPRISE, and to the log lines
 * always. The module's store and this one share the table and its chain lock.
 */
export function databaseAuditRecorder(db: Db, logger: Logger, plan: () => Plan): AuditService {
  return new AuditStore(db, logger, plan);
}
