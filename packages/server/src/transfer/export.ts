import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { openMaintenanceDatabase } from '@docqa/kernel';
import { DocqaError } from '@docqa/plugin-api';
import { presets } from '../presets/standard.js';
import { maintenanceModules } from '@docqa/core/modules';
import { readBuildInfo } from '../build-info.js';
import {
  ArchiveWriter,
  archiveFormat,
  archiveVersion,
  type ArchiveHeader,
  type SequenceState,
  type TableManifest,
} from './archive-format.js';
import { exactTextSettings, quoteIdent, readCatalog, readSequenceNames, type CatalogTable } from './catalog.js';
import { writeDataFiles } from './data-files.js';
import { connectVectorDatabase, vectorTable } from './vector-database.js';

export interface ExportOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  /** The archive to write; it must not exist yet. */
  out: string;
  /** Leave DOCQA_DATA_DIR/models out (the target has the same models already). */
  withoutModels?: boolean;
  /** Progress lines for the operator. */
  log?: (line: string) => void;
}

export interface ExportSummary {
  file: string;
  database: 'embedded' | 'postgresql';
  migrations: number;
  tables: TableManifest[];
  files: number;
  fileBytes: number;
}

/** Rows read per round trip: enough to keep the database busy, few enough to never pile up. */
const rowsPerFetch = 1000;

/**
 * Writes every row of every DocQA table and the data directory's files into one archive. The
 * rows are one consistent snapshot (a REPEATABLE READ transaction): on the embedded database the
 * server must be stopped (its directory lock says so), on PostgreSQL the export may run beside it.
 */
export async function exportArchive(options: ExportOptions): Promise<ExportSummary> {
  const log = options.log ?? (() => undefined);
  const out = path.resolve(options.cwd, options.out);
  if (fs.existsSync(out))
    throw new DocqaError('conflict', `${out} exists already; choose another file name or remove it first.`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const database = await openMaintenanceDatabase({
    env: options.env,
    cwd: options.cwd,
    presets,
    modules: maintenanceModules,
    existingOnly: true,
  });
  const partial = `${out}.partial-${process.pid}`;
  let writer: ArchiveWriter | null = null;
  let vectors: pg.Client | null = null;
  try {
    vectors = await connectVectorDatabase(database.config, false);
    // The archive would copy itself while it grows.
    const relative = path.relative(database.config.dataDir, out);
    if (!relative.startsWith('..') && !path.isAbsolute(relative))
      throw new DocqaError(
        'validation_failed',
        `Write the archive outside DOCQA_DATA_DIR (${database.config.dataDir}): it copies that directory.`,
      );
    const mode = database.connection.mode === 'embedded' ? 'embedded' : 'postgresql';
    const migrations = await database.appliedMigrations();
    if (migrations.length === 0)
      throw new DocqaError('not_found', 'This database holds no DocQA data: no migration was ever applied to it.');
    log(
      mode === 'embedded'
        ? `Exporting the embedded database in ${database.config.dataDir} to ${out}.`
        : 'Exporting from PostgreSQL (DATABASE_URL): the rows are one consistent snapshot ' +
            'taken now; changes made after it are not in the archive.',
    );
    writer = new ArchiveWriter(partial);
    const client = await database.connection.pool.connect();
    let tables: TableManifest[];
    try {
      // Vectors on VECTORDB_URL's server are a snapshot of their own there, taken now as well.
      for (const session of vectors ? [client, vectors] : [client]) {
        await session.query('begin isolation level repeatable read read only');
        for (const statement of exactTextSettings) await session.query(statement);
      }
      const catalog = await readCatalog(client);
      const sourceOf = (table: CatalogTable) => (vectors && table.name === vectorTable ? vectors : client);
      tables = [];
      for (const table of catalog) {
        const { rows } = await sourceOf(table).query<{ count: string }>(
          `select count(*) as count from ${quoteIdent(table.name)}`,
        );
        tables.push({ name: table.name, columns: table.columns, rows: Number(rows[0]?.count ?? 0) });
      }
      const header: ArchiveHeader = {
        format: archiveFormat,
        version: archiveVersion,
        created_at: new Date().toISOString(),
        docqa_version: readBuildInfo().version,
        source: {
          database: mode,
          server_version:
            (await client.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? '',
        },
        migrations,
        tables,
        sequences: await readSequences(client),
      };
      await writer.line(header);
      for (const [index, table] of catalog.entries())
        await writeTable(sourceOf(table), writer, table, tables[index] as TableManifest);
      await client.query('commit');
      await vectors?.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      await vectors?.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    const rowTotal = tables.reduce((sum, table) => sum + table.rows, 0);
    log(
      `${tables.length} tables, ${rowTotal} rows. Copying the data directory ` +
        `${database.config.dataDir}${options.withoutModels ? ' (without models/)' : ''}.`,
    );
    const files = await writeDataFiles(writer, database.config.dataDir, {
      withoutModels: options.withoutModels ?? false,
    });
    await writer.finish({ tables: tables.length, rows: rowTotal, files: files.files, file_bytes: files.bytes });
    writer = null;
    fs.renameSync(partial, out);
    return {
      file: out,
      database: mode,
      migrations: migrations.length,
      tables,
      files: files.files,
      fileBytes: files.bytes,
    };
  } finally {
    if (writer) {
      await writer.abort();
      fs.rmSync(partial, { force: true });
    }
    await vectors?.end();
    await database.close();
  }
}

/** Streams a table through a cursor: each value cast to text, so it is read back exactly. */
async function writeTable(
  client: pg.ClientBase,
  writer: ArchiveWriter,
  table: CatalogTable,
  manifest: TableManifest,
): Promise<void> {
  await writer.line({ table: table.name });
  const cursor = `docqa_export_${table.oid}`;
  const select = table.columns.map((column) => `${quoteIdent(column.name)}::text`).join(', ');
  await client.query(`declare ${cursor} no scroll cursor for select ${select} from ${quoteIdent(table.name)}`);
  let written = 0;
  for (;;) {
    const { rows } = await client.query({ text: `fetch ${rowsPerFetch} from ${cursor}`, rowMode: 'array' });
    for (const row of rows as Array<Array<string | null>>) await writer.line(row);
    written += rows.length;
    if (rows.length < rowsPerFetch) break;
  }
  await client.query(`close ${cursor}`);
  // Inside one snapshot the count cannot change; if it did, the archive would lie about itself.
  if (written !== manifest.rows)
    throw new DocqaError('internal', `Table ${table.name} gave ${written} rows where it counted ${manifest.rows}.`);
  await writer.line({ table_end: table.name, rows: written });
}

async function readSequences(client: pg.PoolClient): Promise<SequenceState[]> {
  const states: SequenceState[] = [];
  for (const name of await readSequenceNames(client)) {
    const { rows } = await client.query<{ last_value: string; is_called: boolean }>(
      `select last_value::text as last_value, is_called from ${quoteIdent(name)}`,
    );
    if (rows[0]) states.push({ name, last_value: rows[0].last_value, is_called: rows[0].is_called });
  }
  return states;
}
