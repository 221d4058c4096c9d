import v8 from 'node:v8';
import { variables } from '@docqa/kernel';

/**
 * How much V8 lets the JavaScript heap grow past what survived the last full collection
 * (HEAP_GROWING_PERCENT, 30 by default). V8 otherwise picks a factor of up to 4 from its own speed
 * measurements, and on a machine with plenty of memory it collects later and later: over a long
 * ingestion the server's heap grew with the corpus although what it held did not (bench:ingest,
 * 208,659 chunks: 266 MB of heap against 138 MB at 30 %, peak RSS 540 MB against 321 MB, extraction
 * 15,300 chunks/s against 12,100). At 30 % the heap stays within a third of what is live whatever
 * the corpus or the run time, for a few more collections; V8's cap on the heap
 * (--max-old-space-size) is left alone, so a large request still gets the memory it needs instead
 * of crashing the process.
 */
const flagName = '--heap-growing-percent';

/**
 * The V8 flag to set, or null: when the process was started with the flag (node's command line; V8
 * flags are not allowed in NODE_OPTIONS), when HEAP_GROWING_PERCENT is 0, or when it is invalid
 * (the configuration check reports that, naming the variable).
 */
export function heapGrowthFlag(execArgv: readonly string[], env: NodeJS.ProcessEnv): string | null {
  if (nodeFlagValue(execArgv, flagName) !== null) return null;
  const spec = variables.HEAP_GROWING_PERCENT;
  let percent: number;
  try {
    percent = spec.parse(env.HEAP_GROWING_PERCENT?.trim() || spec.default);
  } catch {
    return null;
  }
  return percent > 0 ? `${flagName}=${percent}` : null;
}

/**
 * DocQA's memory policy for a long-running process (and the worker threads it starts later: V8's
 * flags are per process), applied by `docqa` before anything else: the heap growth factor above.
 * V8 reads it at each collection, so setting it after start-up works.
 *
 * WebAssembly (PGlite's PostgreSQL) keeps V8's own tiering. Optimised code only (--no-liftoff)
 * held less memory (157 MB against 199 MB in a probe of 20,000 inserts and 300 queries), but V8 then
 * compiles each function with its slow optimising compiler on the main thread when it is first
 * called, and a server indexing a 200 MB text file stopped answering even SIGTERM for over five
 * minutes (test/upload-streaming.test.ts). Turning Liftoff off only while PGlite opened, as before,
 * was worse than the defaults (245 MB): the functions compiled later still got both tiers.
 */
export function applyMemoryPolicy(env: NodeJS.ProcessEnv = process.env): void {
  const flag = heapGrowthFlag(process.execArgv, env);
  if (flag) v8.setFlagsFromString(flag);
}

/**
 * The memory settings that only take effect when the process starts, so `npm start`, `npm run
 * docqa` and the image's `docqa` set them on node's command line or in its environment
 * (docs/operations.md, Memory), and what each saved an ingesting server on the embedded database
 * (bench:ingest, 384-d):
 * - MALLOC_ARENA_MAX=2: glibc gives each thread that allocates an arena of its own that keeps freed
 *   memory (30–40 MB);
 * - MALLOC_MMAP_THRESHOLD_=65536: glibc otherwise raises its threshold for giving a large block its
 *   own mapping to the largest block freed so far, so PGlite's megabyte-sized statements and
 *   results end up in the heap, where freed space is kept rather than returned;
 * - --max-semi-space-size=4 (MB): V8's young generation on the main thread, 16 MB semi-spaces by
 *   default, 32 MB resident once the ingest has filled them; set at run time it is ignored.
 *
 * And one that trades nothing measurable in memory for speed (bench:load, docs/operations.md, Load):
 * - --no-memory-reducer: the collections V8's memory reducer runs once a process has been idle for
 *   some seconds left node's request and answer objects in the embedded database's server in
 *   dictionary mode for good: 41–51 µs of CPU a small request after 12-s pauses, 27–31 µs without
 *   the reducer. Its idle resident set was the same without it (469 against 473 MB). V8 makes the
 *   reducer when the heap is set up, so it can only be turned off on node's command line (not in
 *   NODE_OPTIONS).
 */
export const launchSettings = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '65536',
  '--max-semi-space-size': '4',
  '--no-memory-reducer': '',
} as const;

type LaunchSetting = keyof typeof launchSettings;

/** What this process started with for each launch setting: its value, or null when it was not set. */
export function launchSettingValues(
  execArgv: readonly string[],
  env: NodeJS.ProcessEnv,
): Record<LaunchSetting, string | null> {
  const nodeOptions = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)];
  const entries = (Object.keys(launchSettings) as LaunchSetting[]).map((name) => [
    name,
    name.startsWith('--') ? nodeFlagValue(nodeOptions, name, launchSettings[name] !== '') : env[name]?.trim() || null,
  ]);
  return Object.fromEntries(entries) as Record<LaunchSetting, string | null>;
}

/** Which of the launch settings above this process started without (another value counts as set). */
export function missingLaunchSettings(execArgv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  return Object.entries(launchSettingValues(execArgv, env))
    .filter(([, value]) => value === null)
    .map(([name]) => name);
}

/**
 * A node/V8 flag's value in `--flag=value` or, when it `takesValue`, `--flag value` form ('' for a
 * flag without one, such as `--no-memory-reducer`), or null when absent.
 */
function nodeFlagValue(options: readonly string[], flag: string, takesValue = true): string | null {
  // V8 takes - and _ alike in flag names.
  const at = options.findIndex((option) => (option.split('=')[0] ?? '').replaceAll('_', '-') === flag);
  if (at < 0) return null;
  const option = options[at]!;
  if (option.includes('=')) return option.slice(option.indexOf('=') + 1);
  return takesValue ? (options[at + 1] ?? '') : '';
}
