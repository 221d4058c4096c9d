import crypto from 'node:crypto';
import fs from 'node:fs';
import { once } from 'node:events';
import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { DocqaError } from '@docqa/plugin-api';

/**
 * A DocQA archive (docqa export / docqa import) is one gzip-compressed file of JSON lines, written
 * and read as a stream so no table or file is ever held whole in memory:
 *
 *   {"format":"docqa-archive","version":1,...}     the header: migrations, tables with columns and row counts,
 *                                                  sequences
 *   {"table":"app_user"}                           a table's rows follow, one JSON array a row,
 *   ["9b2c…","admin",null,…]                       every value in PostgreSQL's own text form (or null)
 *   {"table_end":"app_user","rows":2}
 *   {"dir":"sources/git","mode":493}               data directory entries, paths relative to DOCQA_DATA_DIR
 *   {"file":"blobs/sha256/ab/ab…","size":123,"mode":420}
 *   "base64…"                                      the file's bytes, in pieces
 *   {"file_end":"blobs/sha256/ab/ab…","sha256":"…"}
 *   {"symlink":"sources/git/x/link","target":"…"}
 *   {"end":true,"sha256":"…",…}                    the trailer: SHA-256 of every line before it
 *
 * Values in text form are what pg_dump relies on too: the input function of each type reads back
 * exactly what its output function wrote (timestamps in UTC to the microsecond, bytea as hex,
 * jsonb as its JSON text, vectors as "[…]", floats with extra_float_digits = 3).
 */
export const archiveFormat = 'docqa-archive';
export const archiveVersion = 1;

export interface ColumnManifest {
  name: string;
  /** The column's type as format_type() spells it: the cast applied to its text on import. */
  type: string;
}

export interface TableManifest {
  name: string;
  columns: ColumnManifest[];
  rows: number;
}

export interface SequenceState {
  name: string;
  last_value: string;
  is_called: boolean;
}

export interface ArchiveHeader {
  format: typeof archiveFormat;
  version: number;
  created_at: string;
  docqa_version: string;
  source: { database: 'embedded' | 'postgresql'; server_version: string };
  /** The applied migrations of the source, in the order they were applied. */
  migrations: string[];
  /** In foreign-key order: a table comes after every table it references. */
  tables: TableManifest[];
  sequences: SequenceState[];
}

export interface ArchiveTrailer {
  end: true;
  tables: number;
  rows: number;
  files: number;
  file_bytes: number;
  sha256: string;
}

export type ArchiveRecord =
  | { kind: 'header'; header: ArchiveHeader }
  | { kind: 'table'; name: string }
  | { kind: 'row'; values: Array<string | null> }
  | { kind: 'table_end'; name: string; rows: number }
  | { kind: 'dir'; path: string; mode: number }
  | { kind: 'file'; path: string; size: number; mode: number }
  | { kind: 'file_data'; bytes: Buffer }
  | { kind: 'file_end'; path: string; sha256: string }
  | { kind: 'symlink'; path: string; target: string }
  | { kind: 'end'; trailer: ArchiveTrailer };

/** Bytes of a file carried per line: 48 KiB, 64 KiB once in base64. */
export const fileDataPiece = 48 * 1024;

/** Writes lines through gzip into a file, waiting whenever the compressor is behind. */
export class ArchiveWriter {
  readonly #gzip = zlib.createGzip({ level: 6 });
  readonly #done: Promise<void>;
  readonly #hash = crypto.createHash('sha256');
  #failure: Error | null = null;

  constructor(file: string) {
    this.#done = pipeline(this.#gzip, fs.createWriteStream(file, { flags: 'wx' }));
    this.#done.catch((error: Error) => (this.#failure = error));
  }

  async line(value: unknown): Promise<void> {
    if (this.#failure) throw this.#failure;
    const bytes = Buffer.from(`${JSON.stringify(value)}\n`, 'utf8');
    this.#hash.update(bytes);
    if (!this.#gzip.write(bytes)) await Promise.race([once(this.#gzip, 'drain'), this.#done]);
  }

  /** Writes the trailer (with the SHA-256 of everything before it) and closes the file. */
  async finish(trailer: Omit<ArchiveTrailer, 'end' | 'sha256'>): Promise<void> {
    const closing: ArchiveTrailer = { end: true, ...trailer, sha256: this.#hash.digest('hex') };
    this.#gzip.end(`${JSON.stringify(closing)}\n`);
    await this.#done;
  }

  /** Stops writing after a failure; the caller removes the partial file. */
  async abort(): Promise<void> {
    this.#gzip.destroy();
    await this.#done.catch(() => undefined);
  }
}

const corrupt = (detail: string) =>
  new DocqaError('validation_failed', `The archive is damaged or incomplete: ${detail}. Nothing was imported from it.`);

/**
 * Reads an archive's records in order, checking its structure as it goes: the header first, the
 * trailer last with the checksum of everything before it, nothing after. A truncated or altered
 * file fails here (gzip's own check, the checksum, or a line that does not parse).
 */
export async function* readArchive(file: string): AsyncGenerator<ArchiveRecord> {
  const hash = crypto.createHash('sha256');
  let pending = '';
  let lineNumber = 0;
  let ended = false;
  const source = fs.createReadStream(file).pipe(zlib.createGunzip());
  const parse = function* (line: string): Generator<ArchiveRecord> {
    lineNumber += 1;
    if (ended) throw corrupt(`there is data after its end (line ${lineNumber})`);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw corrupt(`line ${lineNumber} is not valid JSON`);
    }
    const record = toRecord(value, lineNumber);
    if (lineNumber === 1 && record.kind !== 'header') throw corrupt('it does not start with a DocQA archive header');
    if (record.kind === 'end') {
      const digest = hash.digest('hex');
      if (record.trailer.sha256 !== digest) throw corrupt('its checksum does not match its content');
      ended = true;
    } else {
      hash.update(`${line}\n`, 'utf8');
    }
    yield record;
  };
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      pending += chunk.toString('utf8');
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        yield* parse(line);
        newline = pending.indexOf('\n');
      }
    }
  } catch (error) {
    if (DocqaError.is(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')
      throw new DocqaError('not_found', `Cannot read the archive ${file}: ${(error as Error).message}`);
    // zlib: a cut-off file ("unexpected end of file"), a wrong checksum, or not gzip at all.
    throw corrupt((error as Error).message);
  }
  if (pending.length > 0) throw corrupt('its last line is cut off');
  if (lineNumber === 0) throw corrupt('it is empty');
  if (!ended) throw corrupt('it ends before its trailer (the file was cut short)');
}

function toRecord(value: unknown, lineNumber: number): ArchiveRecord {
  if (Array.isArray(value)) {
    if (!value.every((item) => item === null || typeof item === 'string'))
      throw corrupt(`row on line ${lineNumber} holds a value that is neither text nor null`);
    return { kind: 'row', values: value as Array<string | null> };
  }
  if (typeof value === 'string') return { kind: 'file_data', bytes: Buffer.from(value, 'base64') };
  if (value === null || typeof value !== 'object') throw corrupt(`line ${lineNumber} is not an archive record`);
  const object = value as Record<string, unknown>;
  if (object.format !== undefined) {
    if (object.format !== archiveFormat) throw corrupt('it is not a DocQA archive');
    if (typeof object.version !== 'number' || object.version > archiveVersion) {
      throw new DocqaError(
        'validation_failed',
        `The archive has format version ${String(object.version)}; this DocQA reads version ` +
          `${archiveVersion} and older. Import it with the DocQA version that made it, or a newer one.`,
      );
    }
    return { kind: 'header', header: object as unknown as ArchiveHeader };
  }
  if (typeof object.table === 'string') return { kind: 'table', name: object.table };
  if (typeof object.table_end === 'string' && typeof object.rows === 'number')
    return { kind: 'table_end', name: object.table_end, rows: object.rows };
  if (typeof object.dir === 'string' && typeof object.mode === 'number')
    return { kind: 'dir', path: object.dir, mode: object.mode };
  if (typeof object.file === 'string' && typeof object.size === 'number' && typeof object.mode === 'number')
    return { kind: 'file', path: object.file, size: object.size, mode: object.mode };
  if (typeof object.file_end === 'string' && typeof object.sha256 === 'string')
    return { kind: 'file_end', path: object.file_end, sha256: object.sha256 };
  if (typeof object.symlink === 'string' && typeof object.target === 'string')
    return { kind: 'symlink', path: object.symlink, target: object.target };
  if (object.end === true && typeof object.sha256 === 'string')
    return { kind: 'end', trailer: object as unknown as ArchiveTrailer };
  throw corrupt(`line ${lineNumber} is not an archive record`);
}
