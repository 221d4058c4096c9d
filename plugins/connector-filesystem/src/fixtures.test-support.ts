import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConnectorDocument, ConnectorEvent, ConnectorProvider, Logger } from '@docqa/plugin-api';
import connectorFilesystem from './index.js';
import { pluginOptionsSchema, type DirectorySourceConfig } from './config.js';

/** Shared set-up of the connector's tests: a sandbox on disk and helpers to sync it. */

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  message: string | undefined;
}

/** A logger that keeps what it is told, so tests can check what was skipped and why. */
export function recordingLogger(lines: LogLine[] = []): Logger & { lines: LogLine[] } {
  const record = (level: LogLine['level']) => (fields: object | string, message?: string) => {
    lines.push(
      typeof fields === 'string'
        ? { level, fields: {}, message: fields }
        : { level, fields: fields as Record<string, unknown>, message },
    );
  };
  const logger = {
    lines,
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    child: () => logger,
  };
  return logger;
}

/**
 * A temporary directory holding `allowed/` (the only allowed root), `allowed/docs/` (the source
 * directory most tests index), `outside/` (not allowed) and `state/` (the plugin's stateDir).
 */
export class Sandbox {
  readonly base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-filesystem-')));
  readonly allowed = path.join(this.base, 'allowed');
  readonly docs = path.join(this.allowed, 'docs');
  readonly outside = path.join(this.base, 'outside');
  readonly stateDir = path.join(this.base, 'state');
  readonly logger = recordingLogger();

  constructor() {
    for (const directory of [this.docs, this.outside]) fs.mkdirSync(directory, { recursive: true });
  }

  /** Writes a file below `docs/`, or below `root` when given, creating its directories. */
  write(relativePath: string, content: string | Buffer, root = this.docs): string {
    const file = path.join(root, relativePath);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    return file;
  }

  remove(relativePath: string): void {
    fs.rmSync(path.join(this.docs, relativePath), { recursive: true, force: true });
  }

  async provider(
    options: Record<string, unknown> = {},
    shutdown: AbortSignal = new AbortController().signal,
  ): Promise<ConnectorProvider<DirectorySourceConfig>> {
    const provider = await connectorFilesystem.init({
      options: pluginOptionsSchema.parse({ allowedPaths: [this.allowed], stateDir: this.stateDir, ...options }),
      instanceId: 'connector-filesystem',
      deps: { logger: this.logger },
      logger: this.logger,
      onStop: () => undefined,
      signal: shutdown,
    });
    return provider as ConnectorProvider<DirectorySourceConfig>;
  }

  /** Runs one whole sync of `docs/` (or the given config) and returns its events. */
  async sync(
    cursor: string | null,
    config: Partial<DirectorySourceConfig> = {},
    options: Record<string, unknown> = {},
    signal: AbortSignal = new AbortController().signal,
  ): Promise<ConnectorEvent[]> {
    const provider = await this.provider(options);
    const source = await provider.open(provider.sourceConfigSchema.parse({ path: this.docs, ...config }), {
      sourceId: 'source-1',
    });
    const events: ConnectorEvent[] = [];
    for await (const event of source.sync(cursor, signal)) events.push(event);
    return events;
  }

  stateFile(sourceId = 'source-1'): string {
    return path.join(this.stateDir, `${sourceId}.json`);
  }

  dispose(): void {
    fs.rmSync(this.base, { recursive: true, force: true });
  }
}

export function upsertedIds(events: ConnectorEvent[]): string[] {
  return upserted(events)
    .map((document) => document.externalId)
    .sort();
}

export function upserted(events: ConnectorEvent[]): ConnectorDocument[] {
  return events.flatMap((event) => (event.type === 'upsert' ? [event.document] : []));
}

export function deletedIds(events: ConnectorEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'delete' ? [event.externalId] : [])).sort();
}

export function cursorOf(events: ConnectorEvent[]): string {
  const last = events.at(-1);
  if (last?.type !== 'checkpoint')
    throw new Error(`the sync did not end with a checkpoint but with ${JSON.stringify(last)}`);
  return last.cursor;
}

export async function readText(document: ConnectorDocument): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of await document.open()) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a rejection, but the promise resolved');
    },
    (error: unknown) => error as Error,
  );
}
