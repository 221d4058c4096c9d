export { Kernel, type KernelOptions } from './kernel.js';
export { Container } from './container.js';
export { loadConfig, readEnvironment, type LoadedConfig, type OidcFallbackProvider } from './config/load.js';
export {
  variables,
  seedVariables,
  type ConfigValues,
  type VariableName,
  type VariableSpec,
} from './config/variables.js';
export { createLogger, type RootLogger, type LogLevelName } from './logging/logger.js';
export { openEmbeddedDatabase, openServerDatabase, redactUrl, type DatabaseConnection } from './db/pool.js';
export type { EmbeddedAutovacuum, TableMaintenance } from './db/embedded-autovacuum.js';
export type { EmbeddedCheckpoints, CheckpointRecord } from './db/embedded-checkpoints.js';
export { createDb, asDatabaseError } from './db/sql.js';
export {
  withStatementLimits,
  currentStatementLimits,
  abortedWorkError,
  type StatementLimits,
} from './db/statement-limits.js';
export type { SchemaMigration } from './db/orm.js';
export { installShutdownHandlers } from './lifecycle.js';
export { propagationSeconds } from './settings/settings-service.js';
export { renderConfigurationReference } from './config/reference.js';
export { openMaintenanceDatabase, type MaintenanceDatabase, type MaintenanceOptions } from './db/maintenance.js';
