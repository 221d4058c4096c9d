import type pg from 'pg';
import { MikroORM, PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { MigrationObject } from '@mikro-orm/core';
import { Migration, Migrator } from '@mikro-orm/migrations';
import { PostgresDialect } from 'kysely';
import { DocqaError, type Logger, type PluginMigration } from '@docqa/plugin-api';
import { coreMigrations } from './migrations/index.js';
import { RuntimeSetting } from './entities/runtime-setting.js';

export const coreEntities = [RuntimeSetting];

/** A migration of the application (identity, documents, ...): SQL statements, run in one transaction. */
export interface SchemaMigration {
  /** Unique and sortable: `0001_identity`. */
  name: string;
  up: readonly string[];
  down?: readonly string[];
}

export interface OrmOptions {
  pool: pg.Pool;
  logger: Logger;
  appMigrations?: readonly SchemaMigration[];
  /** Migrations contributed by plugins, in plugin load order, after the core's. */
  pluginMigrations?: Array<{ pluginId: string; migration: PluginMigration }>;
}

/** Wraps an SQL migration in MikroORM's shape so one migrator, one table, tracks all. */
function wrapSqlMigration(name: string, migration: PluginMigration | SchemaMigration): MigrationObject {
  const SqlMigration = class extends Migration {
    override async up(): Promise<void> {
      for (const statement of migration.up) this.addSql(statement);
    }
    override async down(): Promise<void> {
      for (const statement of migration.down ?? []) this.addSql(statement);
    }
  };
  return { name, class: SqlMigration };
}

/**
 * MikroORM on the application pool (never a pool of its own), with migrations listed in code.
 * There is no `synchronize`: the schema changes only through migrations.
 */
export async function createOrm(options: OrmOptions): Promise<MikroORM> {
  const migrationsList = [
    ...coreMigrations,
    ...(options.appMigrations ?? []).map((migration) => wrapSqlMigration(`app_${migration.name}`, migration)),
    ...(options.pluginMigrations ?? []).map(({ pluginId, migration }) =>
      wrapSqlMigration(`plugin_${pluginId}_${migration.name}`, migration),
    ),
  ];
  const log = options.logger.child({ component: 'orm' });
  // MikroORM's migrator checks that its dbName exists and tries to create it otherwise; name the
  // database the pool is really connected to.
  const { rows } = await options.pool.query<{ name: string }>('select current_database() as name');
  return MikroORM.init({
    driver: PostgreSqlDriver,
    dbName: rows[0]?.name ?? 'postgres',
    entities: coreEntities,
    driverOptions: new PostgresDialect({ pool: options.pool }),
    extensions: [Migrator],
    migrations: {
      migrationsList,
      tableName: 'docqa_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    // The database exists already (the embedded one, or the one DATABASE_URL names); checking it
    // would make MikroORM reconnect and end the pool it shares with everything else.
    ensureDatabase: false,
    discovery: { warnWhenNoEntities: false },
    allowGlobalContext: false,
    debug: false,
    logger: (message: string) => log.debug({ message }, 'orm'),
  });
}

export async function migrate(orm: MikroORM): Promise<string[]> {
  try {
    const applied = await orm.migrator.up();
    return applied.map((m) => m.name);
  } catch (error) {
    const message = (error as Error).message;
    // The one failure operators meet on a managed PostgreSQL: say what to do about it.
    const hint = /permission denied to create extension|must be owner of extension/i.test(message)
      ? " Create the extension once as a superuser (CREATE EXTENSION vector;) or grant DocQA's role the right to, then start again."
      : '';
    throw new DocqaError('unavailable', `Database migration failed, nothing of it was applied: ${message}.${hint}`, {
      cause: error,
    });
  }
}

export async function pendingMigrations(orm: MikroORM): Promise<string[]> {
  const pending = await orm.migrator.getPending();
  return pending.map((m) => m.name);
}
