import { parseArgs } from 'node:util';
import { DocqaError } from '@docqa/plugin-api';
import { exportArchive } from '../transfer/export.js';
import { importArchive } from '../transfer/import.js';

export const exportUsage = `Usage: docqa export --out <file> [--without-models]

  Writes every DocQA table and the data files of DOCQA_DATA_DIR into one archive (gzip-compressed
  JSON lines). The embedded database must not be in use: stop DocQA first. On PostgreSQL the rows
  are one consistent snapshot and DocQA may keep running.
  --without-models   leave DOCQA_DATA_DIR/models out (the target has the same models)
`;

export const importUsage = `Usage: docqa import <file>

  Loads an archive made by docqa export into the database of this configuration (DATABASE_URL, or
  the embedded one in DOCQA_DATA_DIR), which must hold no DocQA data yet, and its files into
  DOCQA_DATA_DIR. All rows or none: a damaged archive leaves the database empty.
`;

export interface TransferCliIo {
  cwd: string;
  env: Record<string, string | undefined>;
  out(line: string): void;
  err(line: string): void;
}

const mebibytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** `docqa export --out <file>`. */
export async function runExport(argv: string[], io: TransferCliIo): Promise<number> {
  return refusalsAsExitCode('export', io, async () => {
    const { values } = parseArgs({
      args: argv,
      options: {
        out: { type: 'string' },
        'without-models': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      io.out(exportUsage);
      return 0;
    }
    if (!values.out) {
      io.err(exportUsage);
      return 2;
    }
    const summary = await exportArchive({
      env: io.env,
      cwd: io.cwd,
      out: values.out,
      withoutModels: values['without-models'],
      log: io.out,
    });
    const rows = summary.tables.reduce((sum, table) => sum + table.rows, 0);
    io.out(
      `Exported ${rows} rows of ${summary.tables.length} tables (${summary.migrations} migrations applied) ` +
        `and ${summary.files} files (${mebibytes(summary.fileBytes)}) to ${summary.file}.`,
    );
    for (const table of summary.tables) io.out(`  ${table.name}: ${table.rows}`);
    return 0;
  });
}

/** `docqa import <file>`. */
export async function runImport(argv: string[], io: TransferCliIo): Promise<number> {
  return refusalsAsExitCode('import', io, async () => {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { help: { type: 'boolean', short: 'h', default: false } },
    });
    if (values.help) {
      io.out(importUsage);
      return 0;
    }
    if (positionals.length !== 1) {
      io.err(importUsage);
      return 2;
    }
    const summary = await importArchive({ env: io.env, cwd: io.cwd, file: positionals[0] as string, log: io.out });
    const rows = summary.tables.reduce((sum, table) => sum + table.rows, 0);
    io.out(
      `Imported ${rows} rows of ${summary.tables.length} tables and ${summary.files} files ` +
        `(${mebibytes(summary.fileBytes)}); every table's row count matches the archive.`,
    );
    for (const table of summary.tables) io.out(`  ${table.name}: ${table.rows}`);
    if (summary.requeuedDocuments > 0)
      io.out(
        `${summary.requeuedDocuments} document(s) were waiting or being ` +
          'indexed; they are queued again when DocQA starts.',
      );
    if (summary.migratedAfter.length > 0)
      io.out(
        `Applied ${summary.migratedAfter.length} newer migration(s) after ` +
          `loading: ${summary.migratedAfter.join(', ')}.`,
      );
    io.out('Start DocQA with this configuration to serve the imported data.');
    return 0;
  });
}

/** Refusals (a DocqaError, a usage mistake) are one line and exit 1; anything else is a bug and throws. */
async function refusalsAsExitCode(command: string, io: TransferCliIo, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (DocqaError.is(error)) {
      io.err(`docqa ${command}: ${error.message}`);
      return 1;
    }
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`docqa ${command}: ${(error as Error).message}`);
      return 2;
    }
    throw error;
  }
}
