import { createRequire } from 'node:module';
import type { Worker as ThreadWorker } from 'node:worker_threads';
import Tesseract from 'tesseract.js';
import { DocqaError } from '@docqa/plugin-api';
import { stageLanguages } from './ocr-languages.js';
import { pageText, type PageText } from './ocr-text.js';

const require = createRequire(import.meta.url);

/** A tesseract worker holds its model and a WASM heap of 100+ MB: give the memory back when idle this long. */
export const ocrIdleMs = 60_000;

/** tesseract.js 7 fetches nothing when every path is local; these are the paths. */
function offlineWorkerOptions(langPath: string): Partial<Tesseract.WorkerOptions> {
  return {
    // Its own thread script, from the installed package (the default, made explicit so no one "fixes" it to a URL).
    workerPath: require.resolve('tesseract.js/src/worker-script/node/index.js'),
    // Node ignores corePath: the worker require()s the WASM build from the installed tesseract.js-core.
    langPath,
    gzip: true,
    // Never write a copy of the language data into the working directory, nor read one from there.
    cacheMethod: 'none',
    // Without a handler tesseract.js rethrows a failed job inside its message listener: an uncaught exception.
    errorHandler: () => {},
  };
}

/** The Node thread behind a tesseract.js worker; not in its types, but part of the object it returns. */
function threadOf(worker: Tesseract.Worker): ThreadWorker | undefined {
  return (worker as unknown as { worker?: ThreadWorker | null }).worker ?? undefined;
}

interface StartedWorker {
  tesseract: Tesseract.Worker;
  /**
   * Rejects when the tesseract thread dies (a WASM abort, out of memory),
   * which would otherwise leave a job waiting forever.
   */
  crashed: Promise<never>;
}

interface Engine {
  worker: Promise<StartedWorker>;
  /** Jobs run one after another, so that a worker never reads two pages at once. */
  tail: Promise<unknown>;
  idleTimer?: NodeJS.Timeout;
}

/**
 * One lazily created tesseract worker per language set, per thread (the
 * pipeline runs one extraction per thread at a time).
 */
const engines = new Map<string, Engine>();

async function startWorker(languages: readonly string[]): Promise<StartedWorker> {
  const langPath = await stageLanguages(languages);
  try {
    const tesseract = await Tesseract.createWorker(
      [...languages],
      Tesseract.OEM.LSTM_ONLY,
      offlineWorkerOptions(langPath),
    );
    const thread = threadOf(tesseract);
    const crashed = new Promise<never>((_, reject) => {
      // Listening also keeps a thread error from being rethrown in this thread as an uncaught exception.
      thread?.once('error', (error) => reject(new Error(`the OCR thread failed: ${error.message}`)));
      thread?.once('exit', (code) => reject(new Error(`the OCR thread exited (code ${code})`)));
    });
    crashed.catch(() => undefined);
    return { tesseract, crashed };
  } catch (error) {
    throw new DocqaError('internal', `The OCR engine could not start for ${languages.join('+')}: ${String(error)}`, {
      cause: error,
    });
  }
}

async function stopEngine(key: string, engine: Engine): Promise<void> {
  if (engines.get(key) === engine) engines.delete(key);
  clearTimeout(engine.idleTimer);
  const started = await engine.worker.catch(() => undefined);
  if (!started) return;
  await started.tesseract.terminate().catch(() => undefined);
}

function engineFor(languages: readonly string[]): { key: string; engine: Engine } {
  const key = languages.join('+');
  let engine = engines.get(key);
  if (!engine) {
    engine = { worker: startWorker(languages), tail: Promise.resolve() };
    const created = engine;
    // A worker that failed to start, or whose thread died, is forgotten: the next document starts a new one.
    const forget = () => stopEngine(key, created);
    created.worker.then((started) => started.crashed.catch(forget), forget).catch(() => undefined);
    engines.set(key, engine);
  }
  return { key, engine };
}

/**
 * Runs `job` on the tesseract worker for these languages, one job at a time. While a job runs, the
 * worker's thread keeps the process alive; between jobs it does not, and after `ocrIdleMs` it stops.
 * An abort terminates the worker (the only way to stop a recognition) and rejects with the reason.
 */
export function withOcrWorker<T>(
  languages: readonly string[],
  signal: AbortSignal | undefined,
  job: (worker: Tesseract.Worker) => Promise<T>,
): Promise<T> {
  const { key, engine } = engineFor(languages);
  const run = engine.tail.then(async (): Promise<T> => {
    signal?.throwIfAborted();
    // An earlier job in the queue was aborted and took this worker down with it: start afresh.
    if (engines.get(key) !== engine) return withOcrWorker(languages, signal, job);
    clearTimeout(engine.idleTimer);
    const { tesseract, crashed } = await engine.worker;
    threadOf(tesseract)?.ref();
    try {
      return await abortable(Promise.race([job(tesseract), crashed]), signal, () => stopEngine(key, engine));
    } finally {
      threadOf(tesseract)?.unref();
      if (engines.get(key) === engine) {
        engine.idleTimer = setTimeout(() => {
          stopEngine(key, engine).catch(() => undefined);
        }, ocrIdleMs);
        engine.idleTimer.unref();
      }
    }
  });
  engine.tail = run.catch(() => undefined);
  return run;
}

function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined, onAbort: () => Promise<void>): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort().catch(() => undefined);
      reject(signal.reason);
    };
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** Stops every OCR worker of this thread now (tests, shutdown); the next OCR starts a new one. */
export async function stopOcrWorkers(): Promise<void> {
  await Promise.all([...engines].map(([key, engine]) => stopEngine(key, engine)));
}

/** What one recognition reads and for whom: the file's name goes into the error a user sees. */
export interface OcrJob {
  filename: string;
  languages: readonly string[];
  signal: AbortSignal | undefined;
}

/**
 * Text of one PNG image by paragraph, on a pooled worker. `place` (such as "page 3") is named in
 * the error with the file, so the user knows which image of it could not be read.
 */
export async function recognisePng(
  png: Buffer,
  { filename, languages, signal }: OcrJob,
  place?: string,
): Promise<PageText> {
  try {
    return await withOcrWorker(languages, signal, async (worker) => {
      const result = await worker.recognize(png, {}, { text: false, blocks: true });
      return pageText(result.data);
    });
  } catch (error) {
    if (error instanceof DocqaError || (signal?.aborted && error === signal.reason)) throw error;
    // tesseract.js rejects with bare strings; name the file (and place) so the user knows which failed.
    const reason = error instanceof Error ? error.message : String(error);
    throw new DocqaError(
      'unsupported_media_type',
      `${filename} could not be read by OCR${place ? ` (${place})` : ''}: ${reason}`,
      { cause: error },
    );
  }
}
