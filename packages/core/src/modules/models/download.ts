import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { DocqaError } from '@docqa/plugin-api';

export interface DownloadProgress {
  /** Bytes in the `.part` file so far, including those kept from an earlier attempt. */
  receivedBytes: number;
  totalBytes: number | null;
  /** Bytes that were already there when this download started (a resumed `.part`). */
  resumedFromBytes: number;
}

export interface DownloadOptions {
  url: string;
  /** Where the finished file goes; nothing is ever written there but the verified file. */
  destination: string;
  expectedBytes?: number;
  sha256?: string;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /** Further attempts after a dropped connection or a server error, each resuming where the last stopped. */
  retries?: number;
  retryDelayMs?: number;
  /** Runs on the complete, checksummed `.part` before it is renamed into place; throwing discards it. */
  verify?: (partFile: string) => Promise<void>;
  /** The server's outbound policy (OUTBOUND_ALLOW), every redirect checked; Node's fetch when not given (the CLI). */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

export interface DownloadResult {
  path: string;
  bytes: number;
  sha256: string;
  resumedFromBytes: number;
  attempts: number;
}

/** A failure worth another attempt: the next one resumes from what the `.part` file holds. */
class Retryable extends Error {}

/** What a `.part` file was fetched from, so a resume only continues the same file. */
interface PartState {
  url: string;
  /** A strong ETag or a Last-Modified date, sent as If-Range: a changed file comes back whole. */
  validator: string | null;
}

/**
 * Downloads `url` to `destination` with Node's fetch. Bytes go to `<destination>.part`; a dropped
 * connection is retried with an HTTP Range request from the bytes already there, and so is a later
 * run (the `.part` and its `.part.json` stay when a download is cancelled or the process dies). Only
 * a file that has the expected size and SHA-256 and passes `verify` is renamed onto `destination`,
 * atomically, so a reader never sees half a model. A file that fails a check is deleted.
 */
export async function download(options: DownloadOptions): Promise<DownloadResult> {
  const { url, destination, signal } = options;
  const part = `${destination}.part`;
  const stateFile = `${part}.json`;
  await fsp.mkdir(path.dirname(destination), { recursive: true });
  const releaseLock = await lock(`${part}.lock`);
  try {
    let state = await readState(stateFile);
    if (!state || state.url !== url) {
      // A .part from another URL (or without a record of one) cannot be trusted to continue.
      await discard(part, stateFile);
      state = { url, validator: null };
      await writeState(stateFile, state);
    }
    const resumedFromBytes = await sizeOf(part);
    const retries = options.retries ?? 5;
    let attempts = 0;
    for (;;) {
      signal?.throwIfAborted();
      attempts++;
      try {
        if (await fetchRest(options, part, state, stateFile, resumedFromBytes)) break;
        throw new Retryable('the connection closed before the end of the file');
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (error instanceof DocqaError || attempts > retries) throw asDocqaError(error, url);
        await sleep((options.retryDelayMs ?? 1000) * attempts, undefined, { signal }).catch(() =>
          signal?.throwIfAborted(),
        );
      }
    }
    return await install(options, part, stateFile, resumedFromBytes, attempts);
  } finally {
    await releaseLock();
  }
}

/** One request for what the `.part` lacks; true when the file is complete. */
async function fetchRest(
  options: DownloadOptions,
  part: string,
  state: PartState,
  stateFile: string,
  resumedFromBytes: number,
): Promise<boolean> {
  let offset = await sizeOf(part);
  if (options.expectedBytes !== undefined && offset > options.expectedBytes) {
    await fsp.rm(part, { force: true });
    offset = 0;
  }
  if (options.expectedBytes !== undefined && offset === options.expectedBytes) return true;
  // identity: Range offsets count the bytes of the file, not of a compressed stream.
  const headers: Record<string, string> = { 'accept-encoding': 'identity' };
  if (offset > 0) {
    headers.range = `bytes=${offset}-`;
    if (state.validator) headers['if-range'] = state.validator;
  }
  const response = await (options.fetch ?? fetch)(options.url, {
    headers,
    redirect: 'follow',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let total: number | null;
  let flags: 'a' | 'w' = 'a';
  if (response.status === 416 && offset > 0) {
    await response.body?.cancel();
    // Asked for bytes past the end: complete when the server's length is what we hold.
    if (totalOf(response.headers.get('content-range')) === offset) return true;
    await fsp.rm(part, { force: true });
    throw new Retryable('the server has a different file than the one partly downloaded; starting over');
  } else if (response.status === 206) {
    const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
    if (!range || Number(range[1]) !== offset) {
      await response.body?.cancel();
      await fsp.rm(part, { force: true });
      throw new Retryable('the server answered another range than the one asked for; starting over');
    }
    total = range[2] === '*' ? null : Number(range[2]);
  } else if (response.status === 200) {
    // The whole file: the server ignores ranges, or the file changed since the .part began (If-Range).
    flags = 'w';
    offset = 0;
    const length = response.headers.get('content-length');
    total = length === null ? null : Number(length);
  } else {
    await response.body?.cancel();
    const retryable = response.status >= 500 || response.status === 408 || response.status === 429;
    const message = `${options.url} answered HTTP ${response.status}`;
    if (retryable) throw new Retryable(message);
    throw new DocqaError(
      response.status === 404 || response.status === 410 ? 'not_found' : 'unavailable',
      `Download failed: ${message}.`,
    );
  }
  if (options.expectedBytes !== undefined && total !== null && total !== options.expectedBytes) {
    await response.body?.cancel();
    throw new DocqaError(
      'validation_failed',
      `Download refused: ${options.url} has ${total} bytes, the catalogue says ${options.expectedBytes}.`,
    );
  }
  state.validator = validatorOf(response.headers);
  await writeState(stateFile, state);
  if (!response.body) throw new Retryable('the response has no body');

  let received = offset;
  // Each chunk is on disk before the next is read, so the .part holds exactly what was counted
  // when the connection drops: the resume asks for the right range.
  const handle = await fsp.open(part, flags);
  try {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      await handle.write(chunk);
      received += chunk.length;
      options.onProgress?.({ receivedBytes: received, totalBytes: total, resumedFromBytes });
    }
  } finally {
    await handle.close();
  }
  if (total === null) return true; // no length to compare with: the server ending the body is all we know
  if (received > total) {
    await fsp.rm(part, { force: true });
    throw new Retryable('the server sent more bytes than the file has; starting over');
  }
  return received === total;
}

/** Size, SHA-256 and the caller's check on the complete `.part`, then the atomic rename. */
async function install(
  options: DownloadOptions,
  part: string,
  stateFile: string,
  resumedFromBytes: number,
  attempts: number,
): Promise<DownloadResult> {
  const bytes = await sizeOf(part);
  try {
    if (options.expectedBytes !== undefined && bytes !== options.expectedBytes) {
      throw new DocqaError(
        'validation_failed',
        `Download refused: ${options.url} gave ${bytes} bytes, the catalogue says ` +
          `${options.expectedBytes}. The download was discarded.`,
      );
    }
    const sha256 = await sha256Of(part, options.signal);
    if (options.sha256 && sha256 !== options.sha256.toLowerCase()) {
      throw new DocqaError(
        'validation_failed',
        `Download refused: the SHA-256 of ${options.url} is ${sha256}, the catalogue ` +
          `says ${options.sha256}. The download was discarded.`,
        {
          extra: { expected_sha256: options.sha256, actual_sha256: sha256 },
        },
      );
    }
    await options.verify?.(part);
    // Data on disk before the name: after a crash the destination holds the whole file or nothing.
    const handle = await fsp.open(part, 'r+');
    await handle.sync().finally(() => handle.close());
    await fsp.rename(part, options.destination);
    await fsp.rm(stateFile, { force: true });
    return { path: options.destination, bytes, sha256, resumedFromBytes, attempts };
  } catch (error) {
    if (!options.signal?.aborted) await discard(part, stateFile);
    throw error;
  }
}

export async function sha256Of(file: string, signal?: AbortSignal): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), hash, ...(signal ? [{ signal }] : []));
  return hash.digest('hex');
}

/**
 * One download per file at a time, across processes on this machine (the CLI and a server job):
 * the lock file names its owner, and one whose process is gone is taken over.
 */
async function lock(file: string): Promise<() => Promise<void>> {
  const owner = JSON.stringify({ pid: process.pid, host: os.hostname() });
  for (let tries = 0; tries < 2; tries++) {
    try {
      await fsp.writeFile(file, owner, { flag: 'wx' });
      return () => fsp.rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = await fsp
        .readFile(file, 'utf8')
        .then((text) => JSON.parse(text) as { pid?: number; host?: string })
        .catch(() => ({}) as { pid?: number; host?: string });
      if (holder.host === os.hostname() && typeof holder.pid === 'number' && !alive(holder.pid)) {
        await fsp.rm(file, { force: true });
        continue;
      }
      throw new DocqaError(
        'conflict',
        `${path.basename(file, '.part.lock')} is being downloaded already (process ` +
          `${holder.pid ?? '?'} on ${holder.host ?? '?'}); if it is not, delete ${file}.`,
      );
    }
  }
  throw new DocqaError('conflict', `Cannot take the download lock ${file}.`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function validatorOf(headers: Headers): string | null {
  const etag = headers.get('etag');
  // If-Range takes only a strong validator; a weak ETag would make every resume start over.
  if (etag && !etag.startsWith('W/')) return etag;
  return headers.get('last-modified');
}

function totalOf(contentRange: string | null): number | null {
  const match = /\/(\d+)$/.exec(contentRange ?? '');
  return match ? Number(match[1]) : null;
}

async function sizeOf(file: string): Promise<number> {
  return fsp.stat(file).then(
    (stats) => stats.size,
    () => 0,
  );
}

async function readState(file: string): Promise<PartState | null> {
  return fsp.readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as PartState,
    () => null,
  );
}

async function writeState(file: string, state: PartState): Promise<void> {
  await fsp.writeFile(file, JSON.stringify(state));
}

async function discard(part: string, stateFile: string): Promise<void> {
  await Promise.all([fsp.rm(part, { force: true }), fsp.rm(stateFile, { force: true })]);
}

function asDocqaError(error: unknown, url: string): DocqaError {
  if (error instanceof DocqaError) return error;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const reason = cause?.code ?? cause?.message ?? (error as Error).message;
  return new DocqaError('unavailable', `Download of ${url} failed: ${reason}. Run the pull again to resume.`, {
    cause: error,
  });
}
