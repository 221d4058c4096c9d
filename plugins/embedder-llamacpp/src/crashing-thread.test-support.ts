/**
 * A stand-in embedding thread for thread-client.test.ts: it speaks embedding-thread.ts's messages
 * without a model (4 numbers a text, the first its length) and ends itself, as a crash would, when
 * asked to embed the text "crash".
 */
import { parentPort } from 'node:worker_threads';
import type { FromEmbeddingThread, ToEmbeddingThread } from './thread-protocol.js';

const port = parentPort!;
const send = (message: FromEmbeddingThread) => port.postMessage(message);

port.on('message', (message: ToEmbeddingThread) => {
  if (message.type === 'start')
    send({ type: 'ready', dimensions: 4, maxInputTokens: 8, contextSize: 16, device: 'cpu' });
  else if (message.type === 'stop') port.close();
  else if (message.type === 'embed') {
    if (message.texts.includes('crash')) process.exit(3);
    send({
      type: 'embedded',
      id: message.id,
      vectors: message.texts.map((text) => Float32Array.of(text.length, 0, 0, 0)),
    });
  }
});
