import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { DocqaError, type AnyModule, type Preset } from '@docqa/plugin-api';
import { loadConfig, readEnvironment, type LoadedConfig } from '../config/load.js';
import { createLogger } from '../logging/logger.js';
import { applicationMigrationsOf, planFromConfiguration, pluginMigrationsOf } from '../kernel.js';
import { createOrm, migrate, type SchemaMigration } from './orm.js';
import { withMigrationLock } from './migration-lock.js';
import { openEmbeddedDatabase, openServerDatabase, type DatabaseConnection } from './pool.js';

export interface MaintenanceOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  presets: Record<string, Preset>;
  /** The application's schema migrations, as the server passes them to Kernel.start. */
  migrations?: readonly SchemaMigration[];
  /** The modules the server starts: their migrations follow the application's. */
  modules?: readonly AnyModule[];
  /**
   * Open only an embedded database that exists already: reading one (an export) must not create an
   * empty database in a mistyped DOCQA_DATA_DIR.
   */
  existingOnly?: boolean;
}

/**
 * The database of the configuration in effect, opened without starting anything on it: no
 * settings seeded, no job queue, no plugins, no default admin. For commands that move data in or
 * out (docqa export, docqa import), which must see and write exactly the data and nothing else.
 */
export interface MaintenanceDatabase {
  config: LoadedConfig;
  connection: DatabaseConnection;
  /** Every migration this build applies with this configuration, in the order it applies them. */
  knownMigrations: readonly string[];
  /** The migrations recorded as applied in this database, in the order they were applied. */
  appliedMigrations(): Promise<string[]>;
  /** Applies pending migrations (only those named, when given) and answers the names applied. */
  migrate(only?: readonly string[]): Promise<string[]>;
  close(): Promise<void>;
}

const migrationsTable = 'docqa_migrations';

export async function openMaintenanceDatabase(options: MaintenanceOptions): Promise<MaintenanceDatabase> {
  const env = readEnvironment(options.env, options.cwd);
  const config = loadConfig(env, { cwd: options.cwd });
  // Only warnings and errors, on stderr: the command's own output is what the operator reads.
  const logger = createLogger({
    level: 'WARNING',
    privacy: { anonymiseUsers: true, redactQueries: true },
    hashKey: config.values.JWT_SECRET_KEY,
    destination: pino.destination(2),
  });
  const { plugins: plan, modules } = await planFromConfiguration(
    options.presets,
    config,
    env,
    options.cwd,
    options.modules ?? [],
  );
  const values = config.values;
  let connection: DatabaseConnection;
  if (values.DATABASE_URL) {
    connection = await openServerDatabase(values.DATABASE_URL, {
      size: 2,
      maxOverflow: 0,
      timeoutSeconds: values.DB_POOL_TIMEOUT,
      recycleSeconds: values.DB_POOL_RECYCLE,
    });
  } else {
    if (options.existingOnly && !fs.existsSync(path.join(config.dataDir, 'pgdata', 'PG_VERSION'))) {
      throw new DocqaError(
        'not_found',
        `There is no embedded database in ${config.dataDir} (DOCQA_DATA_DIR); set DOCQA_DATA_DIR to the directory DocQA has been using, or DATABASE_URL for a PostgreSQL server.`,
      );
    }
    connection = await openEmbeddedDatabase(config.dataDir, values.DB_POOL_TIMEOUT);
  }
  try {
    const appMigrations = applicationMigrationsOf(options.migrations ?? [], modules);
    const orm = await createOrm({
      pool: connection.pool,
      logger,
      appMigrations,
      pluginMigrations: pluginMigrationsOf(plan),
    });
    const knownMigrations = (orm.config.get('migrations').migrationsList ?? []).map(
      (migration) => (migration as { name: string }).name,
    );
    return {
      config,
      connection,
      knownMigrations,
      async appliedMigrations() {
        const { rows } = await connection.pool.query<{ exists: boolean }>(
          'select to_regclass($1) is not null as exists',
          [migrationsTable],
        );
        if (!rows[0]?.exists) return [];
        const applied = await connection.pool.query<{ name: string }>(
          `select name from ${migrationsTable} order by id`,
        );
        return applied.rows.map((row) => row.name);
      },
      async migrate(only) {
        if (only === undefined) return withMigrationLock(connection, () => migrate(orm));
        if (only.length === 0) return [];
        return withMigrationLock(connection, async () => {
          try {
            return (await orm.migrator.up({ migrations: [...only] })).map((info) => info.name);
          } catch (error) {
            throw new DocqaError(
              'unavailable',
              `Database migration failed, nothing of it was applied: ${(error as Error).message}.`,
              { cause: error },
            );
          }
        });
      },
      async close() {
        await orm.close().catch(() => undefined);
        await connection.close();
      },
    };
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }
}
