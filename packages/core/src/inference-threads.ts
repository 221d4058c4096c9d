import os from 'node:os';

type Variable = (name: string) => unknown;

/**
 * N_THREADS, but never more than the cores this process may use: llama.cpp threads spin while they
 * wait, so more threads than cores makes inference many times slower, not faster (measured: a tiny
 * embedding model took 1.9 ms with one thread and over a second with four on two busy cores).
 */
export function inferenceThreads(variable: Variable, cores = os.availableParallelism()): number {
  return Math.max(1, Math.min(Number(variable('N_THREADS')), cores));
}

/**
 * The local embedding model's threads: inferenceThreads, less one core when the database is the
 * embedded one (no DATABASE_URL). PGlite runs every statement on this process's main thread, and an
 * ingest writes each batch while the next one embeds, so a model on every core left the database's
 * thread to fight llama.cpp's spinning threads. Measured with `npm run bench:ingest` on 2 cores:
 * alone, one thread embeds 48–52 chunks/s against 54 with two, which keep 1.5 cores busy for it;
 * in the whole ingest one thread does better (×0.05: 43 chunks/s against 38 with two).
 */
export function embeddingThreads(variable: Variable, cores = os.availableParallelism()): number {
  const threads = inferenceThreads(variable, cores);
  return variable('DATABASE_URL') ? threads : Math.max(1, Math.min(threads, cores - 1));
}
