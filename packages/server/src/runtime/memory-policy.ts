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
  // V8 takes - and _ alike in flag names.
  if (execArgv.some((option) => (option.split('=')[0] ?? '').replaceAll('_', '-') === flagName)) return null;
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
 * V8 compiles a WebAssembly function when it is first called, with its baseline compiler
 * (Liftoff), then hot functions again optimised, and keeps both. For PGlite's 9 MB PostgreSQL that
 * was most of the native memory the embedded database adds; optimised code only, still compiled
 * function by function as PostgreSQL first calls them, holds much less (measured after opening,
 * 20,000 inserts into an HNSW-indexed table and 300 queries: 157 MB resident against 199 MB with
 * V8's defaults, and 245 MB when Liftoff was off only while the database opened, as before: the
 * functions compiled later still got both tiers). Nothing else DocQA runs depends on WebAssembly
 * starting fast (OCR's tesseract compiles the same way in its worker threads).
 */
const optimisedWebAssemblyOnly = '--no-liftoff';

/**
 * DocQA's memory policy for a long-running process (and the worker threads it starts later: V8's
 * flags are per process), applied by `docqa` before anything else: the heap growth factor above and
 * optimised WebAssembly only. V8 reads both when it needs them (at each collection, when it compiles
 * a function), so setting them after start-up works. Tests, which open many short-lived in-memory
 * databases, keep V8's defaults and their fast starts.
 */
export function applyMemoryPolicy(env: NodeJS.ProcessEnv = process.env): void {
  const flag = heapGrowthFlag(process.execArgv, env);
  if (flag) v8.setFlagsFromString(flag);
  v8.setFlagsFromString(optimisedWebAssemblyOnly);
}
