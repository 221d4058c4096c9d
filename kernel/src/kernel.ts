import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MikroORM } from '@mikro-orm/postgresql';
import pino from 'pino';
import {
  createOutboundPolicy,
  DocqaError,
  providerTokens,
  tokens,
  type ConfigService,
  type ContextWindow,
  type Db,
  type Preset,
  type AuditService,
  type Logger,
  type PluginMigration,
  type Token,
  type AnyModule,
} from '@docqa/plugin-api';
import { Container } from './container.js';
import { loadConfig, readEnvironment, type LoadedConfig } from './config/load.js';
import type { ConfigValues, VariableName } from './config/variables.js';
import { createServerPool, openEmbeddedDatabase, openServerDatabase, type DatabaseConnection } from './db/pool.js';
import { ReadReplicas, replicaName } from './db/read-replicas.js';
import { createDb } from './db/sql.js';
import { createOrm, migrate, type SchemaMigration } from './db/orm.js';
import { logAuditService } from './audit/log-audit.js';
import { withMigrationLock } from './db/migration-lock.js';
import { PgBossJobs } from './jobs/pgboss-jobs.js';
import { createLogger, type LogLevelName, type RootLogger } from './logging/logger.js';
import { DbSettingsService } from './settings/settings-service.js';
import { readPluginFile, resolveEntries } from './plugins/resolve.js';
import { planPlugins, type PluginPlanItem } from './plugins/validate.js';
import { startPlugins, type StartedPlugins } from './plugins/start.js';
import { startEmbeddedAutovacuum, type EmbeddedAutovacuum } from './db/embedded-autovacuum.js';
import { startEmbeddedCheckpoints, type EmbeddedCheckpoints } from './db/embedded-checkpoints.js';
import { planModules } from './modules/plan.js';
import { startModules, type StartedModules } from './modules/start.js';

export interface KernelOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Presets this build knows by name; DOCQA_PRESET picks one (or names a module exporting one). */
  presets: Record<string, Preset>;
  /** Tests: an in-memory embedded database instead of DOCQA_DATA_DIR. */
  inMemoryDatabase?: boolean;
  /** Where logs go (default stdout). */
  logDestination?: pino.DestinationStream;
  /** The application's own schema migrations, applied after the core's and before the modules'. */
  migrations?: readonly SchemaMigration[];
  /** Domain modules (defineModule), planned with the plugins and started after them. */
  modules?: readonly AnyModule[];
  /**
   * Where audit events go; by default, the log. A factory is called once the database is open and
   * the container holds the core services (the application's audit store lives in the database).
   */
  audit?: AuditService | ((core: { db: Db; logger: Logger; container: Container }) => AuditService);
}

/**
 * The running core of DocQA: configuration, logger, database, migrations, runtime settings, jobs
 * and plugins, started in that order and stopped in reverse.
 */
export class Kernel {
  readonly config: LoadedConfig;
  readonly logger: RootLogger;
  readonly container: Container;
  readonly connection: DatabaseConnection;
  readonly orm: MikroORM;
  readonly db: Db;
  /** tokens.readDb: reads that may lag a little (search), on DATABASE_READ_URL's replicas when set. */
  readonly readDb: ReadReplicas;
  readonly settings: DbSettingsService;
  readonly jobs: PgBossJobs;
  readonly plugins: StartedPlugins;
  readonly modules: StartedModules;
  /** The embedded database's stand-in for autovacuum; null on a PostgreSQL server, which has its own. */
  readonly autovacuum: EmbeddedAutovacuum | null;
  /** The embedded database's stand-in for the checkpointer; null on a PostgreSQL server. */
  readonly checkpoints: EmbeddedCheckpoints | null;
  /** The context window in effect (tokens.contextWindow): N_CTX, or the chat model's limit when smaller. */
  get effectiveNCtx(): number {
    return this.container.resolve(tokens.contextWindow).get();
  }
  #stopping: Promise<void> | null = null;

  private constructor(parts: Omit<Kernel, 'stop' | 'resolve' | 'resolveAll' | 'variable' | 'effectiveNCtx'>) {
    this.config = parts.config;
    this.logger = parts.logger;
    this.container = parts.container;
    this.connection = parts.connection;
    this.orm = parts.orm;
    this.db = parts.db;
    this.readDb = parts.readDb;
    this.settings = parts.settings;
    this.jobs = parts.jobs;
    this.plugins = parts.plugins;
    this.modules = parts.modules;
    this.autovacuum = parts.autovacuum;
    this.checkpoints = parts.checkpoints;
  }

  static async start(options: KernelOptions): Promise<Kernel> {
    const cwd = options.cwd ?? process.cwd();
    const env = readEnvironment(options.env ?? process.env, cwd);
    const config = loadConfig(env, { cwd });
    const values = config.values;
    const logger = createLogger({
      level: values.LOG_LEVEL as LogLevelName,
      privacy: { anonymiseUsers: values.RAG_LOG_ANONYMISE, redactQueries: values.RAG_LOG_REDACT_QUERIES },
      hashKey: values.JWT_SECRET_KEY,
      ...(options.logDestination ? { destination: options.logDestination } : {}),
    });
    for (const warning of config.warnings) logger.warn(warning);

    // Every plugin and module is checked before the database opens or any of them starts.
    const { plugins: plan, modules: modulePlan } = await planFromConfiguration(
      options.presets,
      config,
      env,
      cwd,
      options.modules ?? [],
    );

    const connection = await openDatabase(config, options.inMemoryDatabase ?? false, logger);
    const cleanup: Array<() => Promise<void>> = [() => connection.close()];
    try {
      const appMigrations = applicationMigrationsOf(options.migrations ?? [], modulePlan);
      const orm = await createOrm({
        pool: connection.pool,
        logger,
        appMigrations,
        pluginMigrations: pluginMigrationsOf(plan),
      });
      cleanup.unshift(() => orm.close());
      const applied = await withMigrationLock(connection, () => migrate(orm));
      if (applied.length > 0) logger.info({ migrations: applied }, `applied ${applied.length} database migration(s)`);

      const settings = new DbSettingsService(connection.pool, logger);
      const explicitlySet = new Set(Object.keys(env).filter((key) => env[key] !== undefined && env[key] !== ''));
      await settings.start(values, explicitlySet);
      cleanup.unshift(async () => settings.stop());
      applyLogSettings(logger, settings.all());
      settings.onChange(() => applyLogSettings(logger, settings.all()));

      // An API-only process (DOCQA_ROLE=api) sends jobs; worker processes run them and the schedules.
      const jobs = new PgBossJobs(connection, logger, {
        poolSize: Math.max(2, Math.min(values.DB_POOL_SIZE, 5)),
        runsJobs: values.DOCQA_ROLE !== 'api',
      });
      await jobs.start();
      cleanup.unshift(() => jobs.stop(values.SHUTDOWN_TIMEOUT_SECONDS * 1000));
      // Every process declares every queue: API processes send to the queues workers work.
      for (const module of modulePlan) {
        for (const [queue, queueOptions] of Object.entries(module.queues ?? {}))
          await jobs.createQueue(queue, queueOptions);
      }

      const db = createDb(connection.pool, connection.mode);
      const readDb = openReadReplicas(config, db, logger);
      await readDb.start();
      cleanup.unshift(() => readDb.close());
      const container = new Container();
      container.register(tokens.config, configService(config));
      container.register(tokens.logger, logger);
      container.register(tokens.db, db);
      container.register(tokens.readDb, readDb);
      container.register(tokens.settings, settings);
      container.register(tokens.jobs, jobs);
      container.register(tokens.jobActivity, jobs);
      container.register(tokens.outbound, createOutboundPolicy(values.OUTBOUND_ALLOW));
      const audit = typeof options.audit === 'function' ? options.audit({ db, logger, container }) : options.audit;
      container.register(tokens.audit, audit ?? logAuditService(logger));
      const contextWindow = mutableContextWindow(values.N_CTX);
      container.register(tokens.contextWindow, contextWindow);

      const plugins = await startPlugins(plan, container, logger);
      cleanup.unshift(() => plugins.stop());
      // Before the modules: chat's token budget starts from the configured model's limit.
      contextWindow.set(await deriveEffectiveNCtx(container, values.N_CTX, logger));

      const modules = await startModules(modulePlan, container, logger);
      cleanup.unshift(() => modules.stop());
      await modules.startHooks(values.DOCQA_ROLE !== 'api');

      const autovacuum = connection.mode === 'embedded' ? startEmbeddedAutovacuum(connection.pool, logger) : null;
      const checkpoints = connection.mode === 'embedded' ? startEmbeddedCheckpoints(connection.pool, logger) : null;
      logger.info(
        {
          database: connection.mode,
          plugins: plan.map((item) => `${item.instanceId}:${item.plugin.id}`),
          modules: modules.ids,
          effective_n_ctx: contextWindow.get(),
        },
        'kernel started',
      );
      return new Kernel({
        config,
        logger,
        container,
        connection,
        orm,
        db,
        readDb,
        settings,
        jobs,
        plugins,
        modules,
        autovacuum,
        checkpoints,
      });
    } catch (error) {
      for (const step of cleanup) await step().catch(() => undefined);
      throw error;
    }
  }

  resolve<T>(token: Token<T>): T {
    return this.container.resolve(token);
  }

  resolveAll<T>(token: Token<T>): T[] {
    return this.container.resolveAll(token);
  }

  variable<K extends VariableName>(name: K): ConfigValues[K] {
    return this.config.values[name];
  }

  /**
   * Stops jobs (running ones may finish within SHUTDOWN_TIMEOUT_SECONDS, then are aborted), then
   * plugins in reverse start order, then the database. Safe to call more than once.
   */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      const timeoutMs = this.config.values.SHUTDOWN_TIMEOUT_SECONDS * 1000;
      // No maintenance pass starts from now on. One under way may be waiting for the connection
      // behind a job's transaction, which only the jobs' stop ends: it is waited for after them.
      const maintenanceStopped = Promise.all([this.autovacuum?.stop(), this.checkpoints?.stop()]);
      await this.jobs.stop(timeoutMs).catch((error) => this.logger.error({ err: error }, 'stopping jobs failed'));
      await this.modules.stop();
      await this.plugins.stop();
      this.settings.stop();
      await maintenanceStopped;
      await this.readDb.close();
      await this.orm.close().catch(() => undefined);
      await this.connection.close().catch((error) => this.logger.error({ err: error }, 'closing the database failed'));
      this.logger.info('kernel stopped');
      this.logger.flush();
    })();
    return this.#stopping;
  }
}

/** The plan's migrations, per plugin, not per instance: two instances of one plugin share its tables. */
export function pluginMigrationsOf(
  plan: readonly PluginPlanItem[],
): Array<{ pluginId: string; migration: PluginMigration }> {
  const migratingPlugins = [...new Map(plan.map((item) => [item.plugin.id, item.plugin])).values()];
  return migratingPlugins.flatMap((plugin) =>
    (plugin.migrations ?? []).map((migration) => ({ pluginId: plugin.id, migration })),
  );
}

/**
 * The application's schema: its own migrations and every planned module's, in the order of their
 * names. The numbers are the schema's one history, in the order it was written and in which every
 * existing database applied it, whichever module a migration belongs to today. Module order cannot
 * stand in for it: the sources' migration 0007 alters the documents' table while the documents
 * module uses the sources module's service. A module's migration may reference only tables made by
 * migrations whose names sort before its own; a new one takes the next free number.
 */
export function applicationMigrationsOf(
  own: readonly SchemaMigration[],
  plan: readonly AnyModule[],
): SchemaMigration[] {
  const all = [...own, ...plan.flatMap((module) => module.migrations ?? [])];
  const names = all.map((migration) => migration.name);
  const repeated = [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
  if (repeated.length > 0)
    throw new DocqaError('module_invalid', `Migration names must be unique; repeated: ${repeated.join(', ')}`);
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The plugins of the preset and the configuration file, and the modules, checked and ordered. Every
 * problem of either is reported at once, before anything opens or starts.
 */
export async function planFromConfiguration(
  presets: Record<string, Preset>,
  config: LoadedConfig,
  env: Record<string, string | undefined>,
  cwd: string,
  modules: readonly AnyModule[] = [],
): Promise<{ plugins: PluginPlanItem[]; modules: AnyModule[] }> {
  const presetName = config.values.DOCQA_PRESET;
  let preset = presets[presetName];
  if (!preset) {
    try {
      // A path names a file relative to the working directory; anything else, an installed package.
      const specifier =
        presetName.startsWith('.') || path.isAbsolute(presetName)
          ? pathToFileURL(path.resolve(cwd, presetName)).href
          : presetName;
      const imported = (await import(specifier)) as { default?: Preset };
      preset = imported.default;
    } catch {
      // reported below
    }
  }
  if (!preset || typeof preset.plugins !== 'function') {
    throw new DocqaError(
      'plugin_invalid',
      `DOCQA_PRESET="${presetName}" is neither a known preset ` +
        `(${Object.keys(presets).join(', ')}) nor a module exporting one.`,
    );
  }
  let file;
  try {
    file = readPluginFile(config.values.DOCQA_CONFIG_FILE, cwd);
  } catch (error) {
    throw new DocqaError('plugin_invalid', `Plugin configuration: ${(error as Error).message}`);
  }
  const context = { variable: (name: string) => (config.values as Record<string, unknown>)[name] ?? env[name] };
  const entries = await resolveEntries(preset, context, file);
  const { plan, problems } = planPlugins(entries);
  const left = new Set(preset.withoutModules ?? []);
  for (const id of left) {
    if (!modules.some((module) => module.id === id))
      problems.push(`preset ${preset.id} leaves out module '${id}', which is not loaded`);
  }
  const editionModules = [...modules.filter((module) => !left.has(module.id)), ...(preset.modules?.(context) ?? [])];
  // Modules are judged against the plugins that are fine; a broken plugin is reported on its own.
  const valid = problems.length > 0 ? planPlugins(entries.filter((entry) => !entry.problem)).plan : plan;
  const modulePlan = planModules(editionModules, valid);
  const lines = [
    ...problems.map((line) => `Plugin error: ${line}`),
    ...modulePlan.problems.map((line) => `Module error: ${line}`),
  ];
  if (lines.length > 0)
    throw new DocqaError(problems.length > 0 ? 'plugin_invalid' : 'module_invalid', lines.join('\n'));
  return { plugins: plan, modules: modulePlan.plan };
}

async function openDatabase(config: LoadedConfig, inMemory: boolean, logger: RootLogger): Promise<DatabaseConnection> {
  const v = config.values;
  if (v.DATABASE_URL) {
    return openServerDatabase(v.DATABASE_URL, {
      size: v.DB_POOL_SIZE,
      maxOverflow: v.DB_MAX_OVERFLOW,
      timeoutSeconds: v.DB_POOL_TIMEOUT,
      recycleSeconds: v.DB_POOL_RECYCLE,
    });
  }
  logger.info(
    { dataDir: inMemory ? 'memory' : config.dataDir },
    'using the embedded database (PGlite); set DATABASE_URL for a PostgreSQL server',
  );
  return openEmbeddedDatabase(inMemory ? null : config.dataDir, v.DB_POOL_TIMEOUT);
}

/** DATABASE_READ_URL's replicas, each with a pool of the primary's size; none: every read on the primary. */
function openReadReplicas(config: LoadedConfig, primary: Db, logger: RootLogger): ReadReplicas {
  const v = config.values;
  const settings = {
    size: v.DB_POOL_SIZE,
    maxOverflow: v.DB_MAX_OVERFLOW,
    timeoutSeconds: v.DB_POOL_TIMEOUT,
    recycleSeconds: v.DB_POOL_RECYCLE,
  };
  const replicas = (v.DATABASE_READ_URL ?? []).map((url) => ({
    name: replicaName(url),
    pool: createServerPool(url, settings, 'docqa-read'),
  }));
  return new ReadReplicas(primary, replicas, {
    maxLagSeconds: v.DATABASE_READ_MAX_LAG_SECONDS,
    probeIntervalMs: replicaProbeIntervalMs,
    logger,
  });
}

/** How often replicas are probed: how long a replica back (or further behind) goes unnoticed at most. */
const replicaProbeIntervalMs = 5000;

function applyLogSettings(logger: RootLogger, settings: Record<string, unknown>): void {
  logger.setLevel(String(settings.LOG_LEVEL ?? 'INFO').toUpperCase() as LogLevelName);
  logger.setPrivacy({
    anonymiseUsers: settings.RAG_LOG_ANONYMISE !== false,
    redactQueries: settings.RAG_LOG_REDACT_QUERIES !== false,
  });
}

function configService(config: LoadedConfig): ConfigService {
  return {
    get: (name: string) => (config.values as Record<string, unknown>)[name],
    dataDir: config.dataDir,
    production: config.production,
    oidcProviders: config.oidcProviders,
  };
}

function mutableContextWindow(initial: number): ContextWindow {
  let current = initial;
  return {
    get: () => current,
    set: (value) => {
      current = value;
    },
  };
}

/** Spec 7: N_CTX above the model's capacity logs a warning, and the model's limit applies. */
async function deriveEffectiveNCtx(container: Container, requested: number, logger: RootLogger): Promise<number> {
  if (!container.has(providerTokens.llm)) return requested;
  const info = await container.resolve(providerTokens.llm).info();
  if (info.contextLength !== null && info.contextLength < requested) {
    logger.warn(
      { n_ctx: requested, model_context: info.contextLength },
      `N_CTX=${requested} is above what model ${info.model} supports; EFFECTIVE_N_CTX is ${info.contextLength}.`,
    );
    return info.contextLength;
  }
  return requested;
}
