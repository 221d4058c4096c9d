import crypto from 'node:crypto';
import pino from 'pino';
import type { Logger } from '@docqa/plugin-api';
import { LineBatch, type BatchTarget } from './line-batch.js';

export type LogLevelName = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';

const pinoLevels: Record<LogLevelName, pino.Level> = { DEBUG: 'debug', INFO: 'info', WARNING: 'warn', ERROR: 'error' };

export interface LogPrivacy {
  anonymiseUsers: boolean;
  redactQueries: boolean;
}

/** Fields that identify a person; anonymised when RAG_LOG_ANONYMISE is on. */
const userFields = new Set(['user', 'user_id', 'userId', 'username', 'email', 'sub', 'actor']);
/** Fields that hold what a user asked; redacted when RAG_LOG_REDACT_QUERIES is on. */
const queryFields = new Set(['query', 'question', 'prompt', 'rewritten_query', 'rewrittenQuery']);

/** The fields of a line a `flatLineWriter` writes: no nested objects, so nothing deeper to redact. */
export type FlatFields = Record<string, string | number | boolean | undefined>;

export interface RootLogger extends Logger {
  setLevel(level: LogLevelName): void;
  setPrivacy(privacy: LogPrivacy): void;
  flush(): void;
  /**
   * Writes lines of one level and message through this (root) logger's destination, byte for byte
   * as `logger[level](fields, message)` writes them (level threshold, privacy, redaction, bindings,
   * field order), serialised here instead of by pino: pino's generic path (hooks, formatters, its
   * redaction pass) made the access log's one line per request cost 6.8 µs of CPU instead of 4.5
   * (docs/operations.md, "Load"), on answers that cost node itself about 20 µs.
   */
  flatLineWriter(level: 'debug' | 'info' | 'error', message: string): (fields: FlatFields) => void;
}

/** The longest a log line waits in memory before it is written (docs/operations.md, "Load"). */
export const logFlushIntervalMs = 1000;

/**
 * Where the logs go by default (`fd`: standard output): lines are buffered up to 4 KiB
 * and written at the latest `logFlushIntervalMs` later, as nginx's `access_log buffer= flush=` does.
 * Written one line at a time, each request's access-log line was a write of its own handed to the
 * threadpool: 13–16 µs of CPU per line instead of 8.5–12 under load, on answers (GET /api/version)
 * that cost node itself about 20 µs. The lines are held by `LineBatch` (why not by sonic-boom: see
 * there), which writes what it holds synchronously when the process exits.
 */
export function bufferedLogDestination(fd: number): pino.DestinationStream {
  const stream = pino.destination({ dest: fd, sync: false, minLength: 0 });
  return new LineBatch(stream as unknown as BatchTarget, 4096, logFlushIntervalMs);
}

let isoTimeMs = 0;
let isoTimeText = new Date(0).toISOString();
/** `new Date().toISOString()`, made once a millisecond: under load, tens of lines share one. */
function isoTimeNow(): string {
  const now = Date.now();
  if (now !== isoTimeMs) {
    isoTimeMs = now;
    isoTimeText = new Date(now).toISOString();
  }
  return isoTimeText;
}

/**
 * Structured JSON logs (pino). The privacy settings are runtime settings, read on every line, so
 * turning them on or off applies at once without a restart. User ids become a keyed hash: the same
 * user maps to the same token across lines (so one can follow a session) and cannot be reversed
 * without the key.
 */
export function createLogger(options: {
  level: LogLevelName;
  privacy: LogPrivacy;
  hashKey: string;
  destination?: pino.DestinationStream;
}): RootLogger {
  let privacy = options.privacy;
  const destination = options.destination ?? bufferedLogDestination(1);
  // pino copies the level into every child at creation, so a level change on the root would not
  // reach the request and plugin loggers made before it; the threshold is checked in a hook instead.
  let threshold = pino.levels.values[pinoLevels[options.level]] ?? 30;
  const anonymise = (value: unknown) =>
    `anon_${crypto.createHmac('sha256', options.hashKey).update(String(value)).digest('hex').slice(0, 12)}`;

  const sanitise = (object: Record<string, unknown>): Record<string, unknown> => {
    if (!privacy.anonymiseUsers && !privacy.redactQueries) return object;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) {
      if (value === undefined || value === null) out[key] = value;
      else if (privacy.anonymiseUsers && userFields.has(key)) out[key] = anonymise(value);
      else if (privacy.redactQueries && queryFields.has(key)) out[key] = `[redacted ${String(value).length} chars]`;
      else out[key] = value;
    }
    return out;
  };

  const redactedFields = new Set(['password', 'token', 'secret']);
  const bindings = { service: 'docqa', pid: process.pid };
  const base = pino(
    {
      level: 'debug',
      hooks: {
        logMethod(args, method, level) {
          if (level >= threshold) method.apply(this, args);
        },
      },
      base: bindings,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: sanitise,
      },
      redact: {
        paths: [
          ...redactedFields,
          '*.password',
          '*.token',
          '*.secret',
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );

  const root = base as unknown as RootLogger;
  root.setLevel = (level) => {
    threshold = pino.levels.values[pinoLevels[level]] ?? 30;
  };
  root.setPrivacy = (next) => {
    privacy = next;
  };
  // pino's order: level, time, the root's bindings, the fields, the message.
  const boundText = Object.entries(bindings)
    .map(([key, value]) => `,${JSON.stringify(key)}:${JSON.stringify(value)}`)
    .join('');
  root.flatLineWriter = (level, message) => {
    const levelValue = pino.levels.values[level] as number;
    const head = `{"level":"${level}","time":"`;
    const tail = `,"msg":${JSON.stringify(message)}}\n`;
    // Each field's `,"name":`, made once: the access log writes the same few names on every line.
    const fieldHeads: Record<string, string> = Object.create(null) as Record<string, string>;
    return (fields) => {
      if (levelValue < threshold) return;
      const shown = sanitise(fields);
      let line = head + isoTimeNow() + '"' + boundText;
      for (const key in shown) {
        const value = shown[key];
        if (value === undefined) continue;
        const field = (fieldHeads[key] ??= `,${JSON.stringify(key)}:`);
        line += field + (redactedFields.has(key) ? '"[redacted]"' : JSON.stringify(value));
      }
      destination.write(line + tail);
    };
  };
  return root;
}
