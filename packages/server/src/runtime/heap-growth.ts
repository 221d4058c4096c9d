import v8 from 'node:v8';

/**
 * How much V8 lets the JavaScript heap grow past what survived the last full collection, in
 * percent. V8 otherwise picks a factor of up to 4 from its own speed measurements, and on a machine
 * with plenty of memory it keeps collecting later and later: over a long ingestion the server's heap
 * grew with the corpus although what it held did not (bench:ingest, 208,659 chunks: 266 MB of heap
 * against 138 MB at 30 %, peak RSS 540 MB against 321 MB, extraction 12,100 chunks/s against
 * 15,300). At 30 % the heap stays within a third of what is live, whatever the corpus or the run
 * time, for a few more collections; V8's cap on the heap (--max-old-space-size) is left alone, so a
 * large request still gets the memory it needs instead of crashing the process.
 */
export const heapGrowingPercent = 30;

const flagName = '--heap-growing-percent';

/** The flag to set, or null when the operator chose their own (on the command line or in NODE_OPTIONS). */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions: string | undefined): string | null {
  // V8 takes - and _ alike in flag names.
  const names = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map((option) => (option.split('=')[0] ?? '').replaceAll('_', '-'));
  const chosen = names.includes(flagName);
  return chosen ? null : `${flagName}=${heapGrowingPercent}`;
}

/**
 * Applies DocQA's heap growth policy to this process (and the worker threads it starts later: V8's
 * flags are per process). V8 reads this flag at every collection, so setting it after start-up works.
 */
export function applyHeapGrowthPolicy(): void {
  const flag = heapGrowthFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag) v8.setFlagsFromString(flag);
}
