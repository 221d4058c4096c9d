/**
 * The load generator of npm run bench:load, in a process of its own so that its work is not the
 * server's: `clients` connections (undici Pool, keep-alive, no pipelining), each sending its next
 * request as soon as the last answer has been read to its end, for `seconds`. Requests rotate through
 * the bodies given, so searches are not one query repeated. An answer counts as an error when its
 * status is not 200 or, for server-sent events, when the stream does not end with a `done` event.
 *
 * Input (argv[2]): JSON of LoadSpec. Output: one JSON line of LoadResult.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

export interface LoadSpec {
  origin: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  /** JSON bodies, used in turn; none for GET. */
  bodies?: unknown[];
  /** The answer is an event stream that must end with `event: done`. */
  sse?: boolean;
  clients: number;
  seconds: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  /** Status codes (or error names) of the failed requests, with their counts. */
  failures: Record<string, number>;
  p50: number;
  p99: number;
  seconds: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
const pool = new Pool(spec.origin, {
  connections: spec.clients,
  pipelining: 1,
  keepAliveTimeout: 60_000,
  // A slow answer under 200 clients is a figure to report, not an error of the client's making.
  headersTimeout: 120_000,
  bodyTimeout: 120_000,
});
const bodies = (spec.bodies ?? []).map((body) => JSON.stringify(body));
const latencies: number[] = [];
const failures: Record<string, number> = {};
let errors = 0;
let next = 0;

function fail(reason: string): void {
  errors++;
  failures[reason] = (failures[reason] ?? 0) + 1;
}

async function once(): Promise<void> {
  const body = bodies.length > 0 ? bodies[next++ % bodies.length] : undefined;
  const started = performance.now();
  try {
    const res = await pool.request({
      method: spec.method,
      path: spec.path,
      headers: body === undefined ? spec.headers : { ...spec.headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
    const text = await res.body.text();
    latencies.push(performance.now() - started);
    if (res.statusCode !== 200) fail(String(res.statusCode));
    else if (spec.sse && !/(^|\n)event: done\n/.test(text)) fail('stream without done');
  } catch (error) {
    latencies.push(performance.now() - started);
    fail((error as Error).name);
  }
}

const started = performance.now();
const deadline = started + spec.seconds * 1000;
async function loop(): Promise<void> {
  while (performance.now() < deadline) await once();
}
await Promise.all(Array.from({ length: spec.clients }, loop));
const seconds = (performance.now() - started) / 1000;
await pool.close();
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
const result: LoadResult = { requests: latencies.length, errors, failures, p50: at(0.5), p99: at(0.99), seconds };
process.stdout.write(`${JSON.stringify(result)}\n`);
