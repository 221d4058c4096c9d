import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  azurePromptFilterEvent,
  chunkEvent,
  completionBody,
  doneEvent,
  usageOf,
  type CompletionIdentity,
  type FinishReason,
} from './protocol.js';
import type { ReceivedChatRequest } from './types.js';

/** One answer being generated: what to send, how fast, and how it may fail. */
export interface Generation {
  response: ServerResponse;
  record: ReceivedChatRequest;
  identity: CompletionIdentity;
  /** The answer's pieces, already cut to max_tokens. */
  pieces: readonly string[];
  finishReason: FinishReason;
  promptTokens: number;
  stream: boolean;
  includeUsage: boolean;
  azure: boolean;
  firstTokenDelayMs: number;
  tokenDelayMs: number;
  /** Destroy the socket once this many pieces were sent (failMidStream); null: answer completely. */
  breakAfterPieces: number | null;
  /** Aborted when the client goes away or the server closes: generation stops at once. */
  stop: AbortController;
  /** Set when the server broke the connection on purpose, so that it is not counted as the client leaving. */
  brokenByServer: boolean;
}

/** Sends the answer, streamed as SSE chunks or as one chat.completion once it is "generated". */
export async function generateAnswer(generation: Generation): Promise<void> {
  if (generation.stream) await streamAnswer(generation);
  else await completeAnswer(generation);
}

async function completeAnswer(generation: Generation): Promise<void> {
  const { response, pieces, stop } = generation;
  // Take as long as streaming the same answer would.
  await pause(generation.firstTokenDelayMs + generation.tokenDelayMs * Math.max(0, pieces.length - 1), stop.signal);
  if (stop.signal.aborted || response.destroyed) return;
  generation.record.piecesSent = pieces.length;
  const body = completionBody(
    generation.identity,
    pieces.join(''),
    generation.finishReason,
    usageOf(generation.promptTokens, pieces.length),
  );
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function streamAnswer(generation: Generation): Promise<void> {
  const { response, identity, pieces, stop, record } = generation;
  // Headers go out at once, as a streaming server sends them before its first token.
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  response.flushHeaders();
  const usageField = generation.includeUsage ? null : undefined;
  if (generation.azure) await send(response, azurePromptFilterEvent());
  await send(
    response,
    chunkEvent(identity, { delta: { role: 'assistant', content: '' }, finish_reason: null }, usageField),
  );

  // Each piece is due at a fixed time from the start, so a busy event loop delays pieces without
  // the delays adding up over a long answer (a benchmark measures the client, not the drift).
  const startedAt = performance.now();
  for (let index = 0; index < pieces.length; index += 1) {
    const dueAt = startedAt + generation.firstTokenDelayMs + index * generation.tokenDelayMs;
    await pause(dueAt - performance.now(), stop.signal);
    if (stop.signal.aborted || response.destroyed) return;
    if (index === generation.breakAfterPieces) return breakConnection(generation);
    await send(response, chunkEvent(identity, { delta: { content: pieces[index] }, finish_reason: null }, usageField));
    record.piecesSent += 1;
  }
  if (stop.signal.aborted || response.destroyed) return;
  // failMidStream with at least as many pieces as the answer has: everything but the end of the stream.
  if (generation.breakAfterPieces !== null) return breakConnection(generation);

  await send(response, chunkEvent(identity, { delta: {}, finish_reason: generation.finishReason }, usageField));
  if (generation.includeUsage)
    await send(response, chunkEvent(identity, null, usageOf(generation.promptTokens, pieces.length)));
  response.end(doneEvent);
}

/**
 * Drops the connection mid-answer, the way a crashing model server or a broken proxy does. Node
 * corks a response's socket until the next tick, so it waits a turn first: the pieces written
 * before the break must reach the client.
 */
async function breakConnection(generation: Generation): Promise<void> {
  generation.brokenByServer = true;
  await new Promise((resolve) => setImmediate(resolve));
  generation.response.destroy();
}

/** Waits, unless there is nothing to wait for (a zero delay must not cost a timer turn per piece). */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return;
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}

/** Writes at once; waits only when the client reads slower than the server writes. */
function send(response: ServerResponse, text: string): Promise<void> | undefined {
  if (response.destroyed || response.write(text)) return undefined;
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}
