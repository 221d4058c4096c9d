import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { openMaintenanceDatabase, type MaintenanceDatabase } from '@docqa/kernel';
import { DocqaError } from '@docqa/plugin-api';
import { presets } from '../presets/standard.js';
import { maintenanceModules } from '@docqa/core/modules';
import { readArchive, type ArchiveHeader, type ArchiveRecord, type TableManifest } from './archive-format.js';
import { exactTextSettings, quoteIdent, readCatalog, type CatalogTable } from './catalog.js';
import { DataFileRestore } from './data-files.js';
import { rowsBeyondBootstrap } from './empty-target.js';
import { connectVectorDatabase, countVectors, vectorTable } from './vector-database.js';

export interface ImportOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  file: string;
  log?: (line: string) => void;
}

export interface ImportSummary {
  database: 'embedded' | 'postgresql';
  tables: Array<{ name: string; rows: number }>;
  files: number;
  fileBytes: number;
  /** Documents that were waiting or being indexed at export: queued again at the first start. */
  requeuedDocuments: number;
  /** Migrations of this build the archive did not have, applied after its rows were loaded. */
  migratedAfter: string[];
}

/** Rows per INSERT, and the text size at which a batch goes sooner (long chunks, big vectors). */
const batchRows = 500;
const batchBytes = 4 * 1024 * 1024;

/**
 * Loads an archive into the database of the configuration in effect, which must hold no DocQA
 * data yet, and its files into DOCQA_DATA_DIR. The rows go in one transaction: an archive that
 * turns out damaged half way, or rows the database refuses, leave the database as empty as it was.
 */
export async function importArchive(options: ImportOptions): Promise<ImportSummary> {
  const log = options.log ?? (() => undefined);
  const file = path.resolve(options.cwd, options.file);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile())
    throw new DocqaError('not_found', `There is no archive at ${file}.`);
  const records = readArchive(file);
  const first = await records.next();
  if (first.done || first.value.kind !== 'header')
    throw new DocqaError(
      'validation_failed',
      'The archive is damaged or not a DocQA archive: it has no header. Nothing was imported from it.',
    );
  const header = first.value.header;

  const database = await openMaintenanceDatabase({
    env: options.env,
    cwd: options.cwd,
    presets,
    modules: maintenanceModules,
  }).catch(async (error: unknown) => {
    await records.return(undefined);
    throw error;
  });
  const restore = new DataFileRestore(database.config.dataDir);
  let vectors: pg.Client | null = null;
  try {
    const mode = database.connection.mode === 'embedded' ? 'embedded' : 'postgresql';
    const pending = await migrationsToApply(database, header);
    // Before changing anything: a database in use is refused as it is, not migrated first.
    await refuseUsedDatabase(database);
    // VECTORDB_URL's server takes the archive's vectors; it must hold none yet either.
    vectors = await connectVectorDatabase(database.config, true);
    const vectorsThere = vectors ? await countVectors(vectors) : 0;
    if (vectorsThere > 0)
      throw new DocqaError(
        'conflict',
        `The vector database of VECTORDB_URL already holds ${vectorsThere} vectors. ` +
          'Import only into an empty one; nothing was changed.',
      );
    if (pending.length > 0) await database.migrate(pending);
    const into =
      mode === 'embedded' ? `embedded database in ${database.config.dataDir}` : 'PostgreSQL database of DATABASE_URL';
    log(
      `Importing ${header.tables.reduce((sum, table) => sum + table.rows, 0)} rows of ` +
        `${header.tables.length} tables (exported ${header.created_at} from DocQA ` +
        `${header.docqa_version}, ${header.source.database}) into the ${into}.`,
    );
    fs.mkdirSync(database.config.dataDir, { recursive: true });

    const client = await database.connection.pool.connect();
    let requeuedDocuments = 0;
    try {
      for (const session of vectors ? [client, vectors] : [client]) {
        await session.query('begin');
        for (const statement of exactTextSettings) await session.query(statement);
      }
      const catalog = await readCatalog(client);
      const leftovers = await rowsBeyondBootstrap(
        client,
        catalog.map((table) => table.name),
      );
      if (leftovers.length > 0) throw notEmpty(leftovers);
      // Triggers are the database's reaction to new rows; these rows are old ones, restored as they
      // were (the audit log's append-only guard would also refuse clearing a first start's rows).
      for (const table of catalog) await client.query(`alter table ${quoteIdent(table.name)} disable trigger user`);
      // A first start's own rows (settings seeded from its environment, the built-in group, its
      // default admin) give way to the archive's.
      for (const table of [...catalog].reverse()) await client.query(`delete from ${quoteIdent(table.name)}`);
      const sessionOf = (table: string) => (vectors && table === vectorTable ? vectors : client);
      await loadRecords(records, header, catalog, sessionOf, restore);
      await verifyCounts(sessionOf, header.tables);
      await restoreSequences(client, header);
      requeuedDocuments = await requeueUnfinishedDocuments(client, catalog);
      for (const table of catalog) await client.query(`alter table ${quoteIdent(table.name)} enable trigger user`);
      const conflicts = await restore.conflicts();
      if (conflicts.length > 0) {
        throw new DocqaError(
          'conflict',
          `DOCQA_DATA_DIR (${database.config.dataDir}) already has other content at ` +
            `${conflicts.slice(0, 5).join(', ')}${conflicts.length > 5 ? ` and ${conflicts.length - 5} more` : ''}; ` +
            'import into an empty data directory. Nothing was imported.',
        );
      }
      await restore.place();
      // The vectors first: should the main commit fail after theirs, their table, empty before, is
      // emptied again (below), and the import is refused as a whole.
      await vectors?.query('commit');
      try {
        await client.query('commit');
      } catch (error) {
        await restore.unplace();
        await vectors?.query(`delete from ${vectorTable}`).catch(() => undefined);
        throw error;
      }
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      await vectors?.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    // Migrations newer than the archive run on its data, as they would have on the source.
    const migratedAfter = await database.migrate();
    return {
      database: mode,
      tables: header.tables.map((table) => ({ name: table.name, rows: table.rows })),
      files: restore.totals.files,
      fileBytes: restore.totals.bytes,
      requeuedDocuments,
      migratedAfter,
    };
  } finally {
    await vectors?.end();
    await restore.cleanUp();
    await database.close();
    // A refused import stops reading half way: let go of the file.
    await records.return(undefined);
  }
}

/**
 * The archive's migrations that this database lacks. An archive from a newer DocQA (or made with
 * plugins this configuration does not load) is refused; an older one loads into a database
 * migrated only as far as it was, and the newer migrations run after the rows are in.
 */
async function migrationsToApply(database: MaintenanceDatabase, header: ArchiveHeader): Promise<string[]> {
  const known = new Set(database.knownMigrations);
  const unknown = header.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new DocqaError(
      'validation_failed',
      "The archive's database has migrations this DocQA does not know " +
        `(${unknown.join(', ')}): it was made by a newer DocQA, or with plugins that ` +
        'docqa.config.json does not load here. Import it with that version and configuration.',
    );
  }
  const applied = await database.appliedMigrations();
  const inArchive = new Set(header.migrations);
  const ahead = applied.filter((name) => !inArchive.has(name));
  if (ahead.length > 0) {
    throw new DocqaError(
      'conflict',
      `This database is already migrated past the archive (${ahead.join(', ')}), so the archive's rows ` +
        'may not fit its tables. Import into a new, empty database, or start the source once with this ' +
        'DocQA version (or run docqa migrate there) and export again.',
    );
  }
  const done = new Set(applied);
  return header.migrations.filter((name) => !done.has(name));
}

async function refuseUsedDatabase(database: MaintenanceDatabase): Promise<void> {
  const client = await database.connection.pool.connect();
  try {
    const catalog = await readCatalog(client);
    const leftovers = await rowsBeyondBootstrap(
      client,
      catalog.map((table) => table.name),
    );
    if (leftovers.length > 0) throw notEmpty(leftovers);
  } finally {
    client.release();
  }
}

function notEmpty(leftovers: Array<{ table: string; rows: number }>): DocqaError {
  const listed = leftovers.map((item) => `${item.table} (${item.rows})`).join(', ');
  return new DocqaError(
    'conflict',
    `This database already holds DocQA data: ${listed}. Import only into a new database ` +
      '(or one DocQA has merely started on); nothing was changed.',
  );
}

/** Loads the rows table by table, in the archive's (foreign-key) order, and stages the files. */
async function loadRecords(
  records: AsyncGenerator<ArchiveRecord>,
  header: ArchiveHeader,
  catalog: CatalogTable[],
  sessionOf: (table: string) => pg.ClientBase,
  restore: DataFileRestore,
): Promise<void> {
  const targetTables = new Map(catalog.map((table) => [table.name, table]));
  for (const manifest of header.tables) {
    const target = targetTables.get(manifest.name);
    if (!target)
      throw new DocqaError(
        'validation_failed',
        `The archive has a table ${manifest.name} that this database does not ` +
          'have after its migrations; nothing was imported.',
      );
    const missing = manifest.columns.filter((column) => !target.columns.some((own) => own.name === column.name));
    if (missing.length > 0)
      throw new DocqaError(
        'validation_failed',
        `Table ${manifest.name} of this database lacks the archive's columns ` +
          `${missing.map((column) => column.name).join(', ')}; nothing was imported.`,
      );
  }
  const expectedTables = header.tables.map((table) => table.name);
  const seenTables: string[] = [];
  let table: {
    manifest: TableManifest;
    target: CatalogTable;
    batch: Array<Array<string | null>>;
    bytes: number;
    rows: number;
  } | null = null;
  let trailerSeen = false;
  let rowTotal = 0;
  const flush = async () => {
    if (!table || table.batch.length === 0) return;
    await insertBatch(sessionOf(table.target.name), table.target, table.manifest, table.batch);
    table.batch = [];
    table.bytes = 0;
  };
  for await (const record of records) {
    switch (record.kind) {
      case 'table': {
        if (table) throw damaged(`table ${record.name} starts inside table ${table.manifest.name}`);
        const expected = expectedTables[seenTables.length];
        if (record.name !== expected)
          throw damaged(`table ${record.name} comes where ${expected ?? 'no more tables'} should`);
        seenTables.push(record.name);
        table = {
          manifest: header.tables[seenTables.length - 1] as TableManifest,
          target: targetTables.get(record.name) as CatalogTable,
          batch: [],
          bytes: 0,
          rows: 0,
        };
        break;
      }
      case 'row': {
        if (!table) throw damaged('a row outside any table');
        if (record.values.length !== table.manifest.columns.length)
          throw damaged(
            `a row of ${table.manifest.name} has ${record.values.length} values ` +
              `for ${table.manifest.columns.length} columns`,
          );
        table.batch.push(record.values);
        table.rows += 1;
        rowTotal += 1;
        for (const value of record.values) table.bytes += value?.length ?? 0;
        if (table.batch.length >= batchRows || table.bytes >= batchBytes) await flush();
        break;
      }
      case 'table_end': {
        if (!table || table.manifest.name !== record.name)
          throw damaged(`the end of table ${record.name} does not close the table being read`);
        await flush();
        if (table.rows !== record.rows || table.rows !== table.manifest.rows)
          throw damaged(
            `table ${record.name} has ${table.rows} rows where the archive recorded ${table.manifest.rows}`,
          );
        table = null;
        break;
      }
      case 'dir':
        await restore.dir(record.path, record.mode);
        break;
      case 'symlink':
        await restore.symlink(record.path, record.target);
        break;
      case 'file':
        await restore.startFile(record.path, record.size, record.mode);
        break;
      case 'file_data':
        await restore.data(record.bytes);
        break;
      case 'file_end':
        await restore.endFile(record.path, record.sha256);
        break;
      case 'end': {
        const trailer = record.trailer;
        if (table) throw damaged(`it ends inside table ${table.manifest.name}`);
        if (
          seenTables.length !== expectedTables.length ||
          trailer.tables !== expectedTables.length ||
          trailer.rows !== rowTotal
        )
          throw damaged('it holds fewer tables or rows than its header lists');
        if (trailer.files !== restore.totals.files || trailer.file_bytes !== restore.totals.bytes)
          throw damaged('it holds other files than its trailer counts');
        trailerSeen = true;
        break;
      }
      case 'header':
        throw damaged('a second header');
    }
  }
  // readArchive refuses a file without its trailer; this only guards the reasoning above.
  if (!trailerSeen) throw damaged('it has no trailer');
}

/**
 * One INSERT of many rows: each column's texts as one array parameter, unnested and cast to the
 * column's type by its input function, the inverse of the export's cast to text.
 */
async function insertBatch(
  client: pg.ClientBase,
  target: CatalogTable,
  manifest: TableManifest,
  batch: Array<Array<string | null>>,
): Promise<void> {
  const columns = manifest.columns;
  const names = columns.map((column) => quoteIdent(column.name)).join(', ');
  const aliases = columns.map((_, index) => `c${index}`);
  const casts = columns.map((column, index) => `u.${aliases[index]}::${column.type}`).join(', ');
  const params = columns.map((_, index) => batch.map((row) => row[index] ?? null));
  const unnest = columns.map((_, index) => `$${index + 1}::text[]`).join(', ');
  const overriding = target.hasAlwaysIdentity ? ' overriding system value' : '';
  try {
    await client.query(
      `insert into ${quoteIdent(target.name)} (${names})${overriding} select ` +
        `${casts} from unnest(${unnest}) as u(${aliases.join(', ')})`,
      params,
    );
  } catch (error) {
    throw new DocqaError(
      'validation_failed',
      `Rows of table ${target.name} were refused by the database: ${(error as Error).message}. Nothing was imported.`,
      { cause: error },
    );
  }
}

async function verifyCounts(sessionOf: (table: string) => pg.ClientBase, tables: TableManifest[]): Promise<void> {
  for (const table of tables) {
    const { rows } = await sessionOf(table.name).query<{ count: string }>(
      `select count(*) as count from ${quoteIdent(table.name)}`,
    );
    const count = Number(rows[0]?.count ?? 0);
    if (count !== table.rows)
      throw new DocqaError(
        'internal',
        `Table ${table.name} holds ${count} rows after the import where the ` +
          `archive has ${table.rows}; nothing was imported.`,
      );
  }
}

/** Sequences continue where the source's were, so new rows never reuse a number (audit seq). */
async function restoreSequences(client: pg.PoolClient, header: ArchiveHeader): Promise<void> {
  for (const sequence of header.sequences) {
    const { rows } = await client.query<{ exists: boolean }>('select to_regclass($1) is not null as exists', [
      quoteIdent(sequence.name),
    ]);
    if (!rows[0]?.exists) continue;
    await client.query('select setval($1::regclass, $2::bigint, $3)', [
      quoteIdent(sequence.name),
      sequence.last_value,
      sequence.is_called,
    ]);
  }
}

/**
 * pg-boss's queue is not carried (its jobs belong to the old database's queue), so documents that
 * were waiting for a job or being indexed become pending without a job: the first start of a
 * worker queues them (DocumentService.requeueOrphans), and indexing replaces any partial chunks.
 */
async function requeueUnfinishedDocuments(client: pg.PoolClient, catalog: CatalogTable[]): Promise<number> {
  const document = catalog.find((table) => table.name === 'document');
  if (!document || !['status', 'job_id'].every((column) => document.columns.some((own) => own.name === column)))
    return 0;
  const { rowCount } = await client.query(
    `update document set status = 'pending', job_id = null where status in ('pending', 'indexing')`,
  );
  return rowCount ?? 0;
}

function damaged(detail: string): DocqaError {
  return new DocqaError(
    'validation_failed',
    `The archive is damaged or incomplete: ${detail}. Nothing was imported from it.`,
  );
}
