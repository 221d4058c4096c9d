/**
 * The HTTP + SSE path of POST /api/chat against the hosted backend (llm-openai) talking to the
 * testkit's loopback OpenAI-compatible server, compared with the same backend called directly:
 * each chat is replayed at once with the very messages the server sent the model, so both sides
 * pay the same prompt size and the same model delays.
 */
import { performance } from 'node:perf_hooks';
import type { ChatMessage, LlmBackend } from '@docqa/plugin-api';
import type { ChatCompletionsServer } from '@docqa/plugin-testkit';
import { chatStream } from '../../dist/testing/sse.test-support.js';

export interface PairedFirstToken {
  /** Request sent → first `delta` event parsed by the client. */
  httpFirstDelta: number;
  /** generate() called → its first piece, same messages, same model server. */
  backendFirstToken: number;
  /** The done event's own timing.classify + timing.retrieve (work the direct call does not do). */
  classifyRetrieve: number;
  mode: string;
}

export async function pairedFirstTokens(
  baseUrl: string,
  token: string,
  llm: ChatCompletionsServer,
  backend: LlmBackend,
  queries: readonly string[],
): Promise<PairedFirstToken[]> {
  const pairs: PairedFirstToken[] = [];
  for (const query of queries) {
    const before = llm.requests.length;
    const { status, events } = await chatStream(baseUrl, token, { query });
    const firstDelta = events.find((event) => event.type === 'delta');
    const done = events.find((event) => event.type === 'done');
    if (status !== 200 || !firstDelta || !done)
      throw new Error(`chat stream for "${query}" ended without an answer: ${JSON.stringify(events.at(-1) ?? status)}`);
    const sent = llm.requests.slice(before).find((request) => request.path === '/v1/chat/completions')?.body;
    if (!sent) throw new Error('the server answered without asking the model (no passages retrieved?)');

    const started = performance.now();
    let backendFirstToken = Number.NaN;
    const request = {
      messages: sent.messages as ChatMessage[],
      maxTokens: sent.max_tokens as number,
      temperature: sent.temperature as number,
    };
    // Read to the end like the server does, so the model server is idle again for the next pair.
    for await (const _piece of backend.generate(request, new AbortController().signal)) {
      if (Number.isNaN(backendFirstToken)) backendFirstToken = performance.now() - started;
    }
    const timing = done.data.timing as { classify: number; retrieve: number };
    pairs.push({
      httpFirstDelta: firstDelta.at,
      backendFirstToken,
      classifyRetrieve: timing.classify + timing.retrieve,
      mode: done.data.retrieval_settings.mode as string,
    });
  }
  return pairs;
}

export interface ConcurrentOutcome {
  streams: number;
  done: number;
  errorEvents: number;
  /** Requests that failed outright: a status other than 200, or a broken connection. */
  failed: number;
  wallSeconds: number;
  firstDeltas: number[];
  firstFailure: string | null;
}

/** `queries.length` chat streams at once; each must end with `done` and no `error`. */
export async function concurrentStreams(
  baseUrl: string,
  token: string,
  queries: readonly string[],
): Promise<ConcurrentOutcome> {
  const started = performance.now();
  const outcome: ConcurrentOutcome = {
    streams: queries.length,
    done: 0,
    errorEvents: 0,
    failed: 0,
    wallSeconds: 0,
    firstDeltas: [],
    firstFailure: null,
  };
  await Promise.all(
    queries.map(async (query) => {
      try {
        const { status, events, json } = await chatStream(baseUrl, token, { query });
        const errors = events.filter((event) => event.type === 'error');
        const first = events.find((event) => event.type === 'delta');
        if (first) outcome.firstDeltas.push(first.at);
        outcome.errorEvents += errors.length;
        if (status === 200 && events.at(-1)?.type === 'done' && errors.length === 0) outcome.done += 1;
        else {
          if (status !== 200) outcome.failed += 1;
          outcome.firstFailure ??= `status ${status}: ${JSON.stringify(errors[0]?.data ?? json)}`;
        }
      } catch (error) {
        outcome.failed += 1;
        outcome.firstFailure ??= String(error);
      }
    }),
  );
  outcome.wallSeconds = (performance.now() - started) / 1000;
  return outcome;
}
