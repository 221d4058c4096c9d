/**
 * The embedding thread (a worker thread the plugin starts): it loads the model and embeds the
 * texts the server's thread sends, one text after the other with nothing in between.
 *
 * Why a thread of its own: node-llama-cpp computes an embedding on llama.cpp's threads but needs a
 * turn of its caller's event loop to take each result and start the next text. On the server's
 * thread that turn waits for whatever runs there; on the embedded database every SQL statement runs
 * there (PGlite), so the model idled while the index was written, and the ingest's embedding and
 * writing added up instead of overlapping.
 *
 * Order: the request with the fewest texts left goes next, one text at a time, so a search's one
 * text waits for at most one text of an ingest, and of two ingest batches the one nearer its end
 * finishes first (its document is written while the other embeds).
 */
import { parentPort } from 'node:worker_threads';
import type { Logger } from '@docqa/plugin-api';
import { DocqaError } from '@docqa/plugin-api/errors';
import { loadEmbeddingModel, type LoadedEmbeddingModel } from './load-model.js';
import { createTextEmbedder, type TextEmbedder } from './text-embedder.js';
import { toThreadError, type FromEmbeddingThread, type LogLevel, type ToEmbeddingThread } from './thread-protocol.js';

if (!parentPort) throw new Error('embedding-thread.ts runs as a worker thread (see thread-client.ts)');
const port = parentPort;

const send = (message: FromEmbeddingThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/** A Logger whose lines go to the server's logger, with their fields. */
function threadLogger(bindings: Record<string, unknown> = {}): Logger {
  const at =
    (level: LogLevel) =>
    (fields: object | string, message?: string): void => {
      const [data, text] = typeof fields === 'string' ? [{}, fields] : [fields, message ?? ''];
      send({ type: 'log', level, fields: { ...bindings, ...data }, message: text });
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (more) => threadLogger({ ...bindings, ...more }),
  };
}

interface Request {
  texts: string[];
  vectors: Float32Array[];
}

const requests = new Map<number, Request>();
let loaded: LoadedEmbeddingModel | null = null;
let embedder: TextEmbedder | null = null;
/** The loop that embeds while requests wait; null when none do. */
let running: Promise<void> | null = null;
let stopping = false;

const textsLeft = (request: Request) => request.texts.length - request.vectors.length;

function fewestLeft(): [number, Request] {
  let best: [number, Request] | null = null;
  for (const entry of requests) if (!best || textsLeft(entry[1]) < textsLeft(best[1])) best = entry;
  return best!;
}

function drain(): void {
  if (running || !embedder) return;
  running = embedWhileRequested(embedder)
    .catch((error: unknown) => {
      // Kept for stop() to await: a rejection here would go unobserved until then, or for ever.
      for (const id of requests.keys()) send({ type: 'failed', id, error: toThreadError(error) });
      requests.clear();
    })
    .finally(() => {
      running = null;
    });
}

async function embedWhileRequested(embedder: TextEmbedder): Promise<void> {
  while (requests.size > 0 && !stopping) {
    const [id, request] = fewestLeft();
    let vector: Float32Array;
    try {
      vector = await embedder.embedOne(request.texts[request.vectors.length]!);
    } catch (error) {
      requests.delete(id);
      send({ type: 'failed', id, error: toThreadError(error) });
      continue;
    }
    // Cancelled while its text was under way.
    if (requests.get(id) !== request) continue;
    request.vectors.push(vector);
    if (request.vectors.length === request.texts.length) {
      requests.delete(id);
      send(
        { type: 'embedded', id, vectors: request.vectors },
        request.vectors.map((each) => each.buffer as ArrayBuffer),
      );
    }
  }
}

async function start(message: Extract<ToEmbeddingThread, { type: 'start' }>): Promise<void> {
  try {
    loaded = await loadEmbeddingModel(message.options, threadLogger());
    embedder = createTextEmbedder(loaded, { model: message.spaceModel, dimensions: loaded.model.embeddingVectorSize });
    send({
      type: 'ready',
      dimensions: embedder.space.dimensions,
      maxInputTokens: embedder.maxInputTokens,
      contextSize: loaded.contextSize,
      device: loaded.device,
    });
    drain();
  } catch (error) {
    await loaded?.dispose().catch(() => undefined);
    loaded = null;
    send({
      type: 'failed',
      id: null,
      error: toThreadError(error instanceof DocqaError ? error : new DocqaError('unavailable', String(error))),
    });
    port.close();
  }
}

async function stop(): Promise<void> {
  stopping = true;
  requests.clear();
  // A text under way ends first: llama.cpp must not be released in the middle of an evaluation.
  try {
    await running;
    await loaded?.dispose();
  } finally {
    // The parent waits for this thread's exit; an error unloading must not keep it alive.
    port.close();
  }
}

port.on('message', (message: ToEmbeddingThread) => {
  switch (message.type) {
    case 'start':
      // start reports its own failures to the parent ('failed').
      start(message).catch(() => port.close());
      break;
    case 'embed':
      requests.set(message.id, { texts: message.texts, vectors: [] });
      drain();
      break;
    case 'cancel':
      requests.delete(message.id);
      break;
    case 'stop':
      stop().catch(() => undefined);
      break;
  }
});
