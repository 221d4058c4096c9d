import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { DocqaError } from '@docqa/plugin-api';

/*
 * S3 has no change feed a connector can rely on (event notifications need set-up on the store and a
 * queue), so changes are found by comparing the listing with what the previous sync saw: the ETag,
 * modification time and size of every object it announced. That "state" is too large for a cursor
 * (100k objects), so it lives in a file per source, and the cursor names the exact file contents:
 *
 *     cursor = "<generation>:<sha256 of the state file>"
 *
 * The file is written (temp file + rename) just before the checkpoint. If DocQA never stores that
 * checkpoint (the sync failed or was cancelled after the rename), or the file is lost or replaced,
 * the cursor DocQA hands back no longer matches the file, and the sync falls back to a full resync
 * instead of trusting a state that does not describe what DocQA holds.
 *
 * File format, JSON Lines: a header `{"format":1,"generation":N,"scope":"…"}`, then one line per
 * announced object: `["key","etag",lastModifiedMs,size]`.
 */

export interface ObjectVersion {
  etag: string;
  lastModifiedMs: number;
  size: number;
}

export interface PreviousState {
  /** Objects announced by the previous sync; the sync removes each one it lists again, the rest are gone. */
  entries: Map<string, ObjectVersion>;
  generation: number;
  /** True when the cursor matches the file and its scope: only then can unchanged objects be skipped. */
  trusted: boolean;
  /** Why a state that exists is not trusted, for the log. */
  distrust?: string;
}

const stateFormat = 1;
const cursorPattern = /^(\d{1,15}):([0-9a-f]{64})$/;
const linesPerWrite = 500;

/** One file per source. Ids are UUIDs; anything else is hashed rather than trusted as a file name. */
export function stateFilePath(stateDir: string, sourceId: string): string {
  const name = /^[A-Za-z0-9_-]{1,100}$/.test(sourceId)
    ? sourceId
    : crypto.createHash('sha256').update(sourceId).digest('hex');
  return path.join(stateDir, `${name}.s3-state.jsonl`);
}

export function parseCursor(cursor: string): { generation: number; hash: string } {
  const match = cursorPattern.exec(cursor);
  if (!match) {
    throw new DocqaError(
      'validation_failed',
      `Sync cursor '${cursor}' is not '<generation>:<sha256>'; it must come from a checkpoint of the S3 integration`,
    );
  }
  return { generation: Number(match[1]), hash: match[2]! };
}

function formatCursor(generation: number, hash: string): string {
  return `${generation}:${hash}`;
}

/**
 * Reads the previous state. `scope` identifies what the state was made of (store, bucket, prefix):
 * a state of another scope is not trusted, because its paths or objects differ.
 */
export async function loadState(file: string, cursor: string | null, scope: string): Promise<PreviousState> {
  const expected = cursor === null ? null : parseCursor(cursor);
  const empty = (distrust?: string): PreviousState => ({
    entries: new Map(),
    generation: 0,
    trusted: false,
    ...(distrust ? { distrust } : {}),
  });
  let hash: string;
  try {
    hash = await hashFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return empty(expected ? 'the state file is missing' : undefined);
    throw new DocqaError('unavailable', `Cannot read S3 sync state ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const lines = readline.createInterface({
    input: fs.createReadStream(file, { encoding: 'utf8' }),
    crlfDelay: Infinity,
  });
  const entries = new Map<string, ObjectVersion>();
  // Typed with `as`: assigned inside the loop, which TypeScript's narrowing does not follow.
  let header = null as { format?: unknown; generation?: unknown; scope?: unknown } | null;
  try {
    for await (const line of lines) {
      if (header === null) {
        header = JSON.parse(line) as { format?: unknown; generation?: unknown; scope?: unknown };
        continue;
      }
      const [key, etag, lastModifiedMs, size] = JSON.parse(line) as [string, string, number, number];
      entries.set(key, { etag, lastModifiedMs, size });
    }
  } catch {
    // Our own file, so this means a crash mid-write outside the rename or a hand edit: start over.
    return empty('the state file is corrupt');
  } finally {
    lines.close();
  }
  if (header?.format !== stateFormat || typeof header.generation !== 'number')
    return empty('the state file has an unknown format');
  const distrust =
    expected === null
      ? 'no cursor was given'
      : expected.hash !== hash
        ? 'the cursor does not match the state file (stale cursor)'
        : header.scope !== scope
          ? 'endpoint, bucket or prefix changed'
          : undefined;
  return { entries, generation: header.generation, trusted: distrust === undefined, ...(distrust ? { distrust } : {}) };
}

async function hashFile(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Writes the next state beside the current one; commit() swaps it in atomically. */
export class StateWriter {
  private readonly hash = crypto.createHash('sha256');
  private pending: string[] = [];
  private done = false;

  private constructor(
    private readonly file: string,
    private readonly temporary: string,
    private readonly handle: fs.promises.FileHandle,
    private readonly generation: number,
  ) {}

  static async create(file: string, generation: number, scope: string): Promise<StateWriter> {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    // A unique name: two syncs of one source never write into each other's file.
    const temporary = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    const writer = new StateWriter(file, temporary, await fs.promises.open(temporary, 'w', 0o600), generation);
    writer.pending.push(JSON.stringify({ format: stateFormat, generation, scope }));
    return writer;
  }

  async add(key: string, version: ObjectVersion): Promise<void> {
    this.pending.push(JSON.stringify([key, version.etag, version.lastModifiedMs, version.size]));
    if (this.pending.length >= linesPerWrite) await this.flush();
  }

  /** Makes this state the current one and returns the cursor that names it. */
  async commit(): Promise<string> {
    await this.flush();
    // On disk before the rename: a crash must leave the old state or the new one, never half of one.
    await this.handle.sync();
    await this.handle.close();
    await fs.promises.rename(this.temporary, this.file);
    this.done = true;
    return formatCursor(this.generation, this.hash.digest('hex'));
  }

  /** Throws the new state away (abort, failure, or nothing changed). Safe to call after commit(). */
  async discard(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.handle.close().catch(() => undefined);
    await fs.promises.rm(this.temporary, { force: true });
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const bytes = Buffer.from(this.pending.map((line) => `${line}\n`).join(''), 'utf8');
    this.pending = [];
    this.hash.update(bytes);
    await this.handle.write(bytes);
  }
}
