import type { Response } from 'express';
import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';
import { DocqaError } from '@docqa/plugin-api';
import type { Logger } from '@docqa/plugin-api';
import { defineRoute } from '../http/route.js';
import { EventStreamWriter, startEventStream } from '../http/event-stream.js';
import { locationSchema } from './location-schema.js';
import { rerankOutcomeSchema, rerankTimingSchema } from './rerank-schemas.js';
import { collectOutcome, type ChatEvent, chatTokens } from '@docqa/core/chat';

const maxQueryLength = 8000;
/** Comment lines keep proxies from closing a stream that is quiet while retrieval or the model work. */
const keepAliveMs = 15_000;

const filtersSchema = z.object({
  document_ids: z.array(z.uuid()).optional(),
  source_type: z.enum(['upload', 'connector', 'integration']).optional(),
  source_id: z.uuid().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});

const chatBody = z.strictObject({
  query: z
    .string()
    .max(maxQueryLength)
    .refine((value) => value.trim().length > 0, 'must not be empty'),
  conversation_id: z
    .uuid()
    .nullable()
    .optional()
    .describe(
      'Continue this conversation. An id no conversation has yet starts one under that id, owned by the ' +
        'caller (clients may choose their own ids); a new id is made when left out.',
    ),
  top_k: z.number().int().min(1).max(50).default(6).describe('Passages retrieved before the token budget trims them.'),
  filters: z
    .strictObject({
      document_ids: z.array(z.uuid()).max(1000).optional(),
      source_type: z
        .enum(['upload', 'connector', 'integration'])
        .optional()
        .describe('Only documents from this kind of source, as GET /api/docs filters them.'),
      source_id: z.uuid().optional().describe("Only this connector's or integration's documents."),
      metadata: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
});

const sourceSchema = z.object({
  index: z.number().int().describe('The number the answer cites as [n].'),
  chunk_id: z.uuid(),
  document_id: z.uuid(),
  title: z.string(),
  path: z.string(),
  text: z.string(),
  score: z.number(),
  metadata: z.record(z.string(), z.unknown()),
  location: locationSchema,
});
nameSchema(sourceSchema, 'ChatSource');

const tokenBudgetSchema = z
  .object({
    limit: z.number().int(),
    estimated_prompt: z.number().int(),
    reserved_completion: z.number().int(),
    chunks_dropped: z.number().int(),
    history_turns_dropped: z
      .number()
      .int()
      .describe('Earlier turns left out of the prompt after every droppable chunk.'),
  })
  .nullable()
  .describe('null when the prompt fit without trimming.');

const retrievalSettingsSchema = z.object({
  mode: z.enum(['lexical', 'dense', 'hybrid']),
  top_k: z.number().int(),
  filters: filtersSchema.describe("The filters retrieval used: the request's and the classifier's."),
  rewritten_query: z.string().nullable(),
  rerank: rerankOutcomeSchema.optional(),
  classification: z.object({
    filters: z
      .record(z.string(), z.string())
      .describe("Filters the metadata rules' query patterns found in the question."),
    ambiguous: z.record(
      z.string(),
      z.object({ candidates: z.array(z.string()), chosen: z.string().nullable(), by: z.enum(['priority', 'llm']) }),
    ),
  }),
});

const timingSchema = z
  .object({
    classify: z.number(),
    retrieve: z.number(),
    rerank: rerankTimingSchema.optional(),
    generate: z.number(),
    total: z.number(),
  })
  .describe('Milliseconds per stage.');

const usageSchema = z
  .object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() })
  .describe("Tokens of the prompt and the answer, the model's tokenizer's count or an estimate; 0 without passages.");

const doneSchema = z.object({
  conversation_id: z.uuid(),
  sources: z.array(sourceSchema),
  token_budget: tokenBudgetSchema,
  retrieval_settings: retrievalSettingsSchema,
  timing: timingSchema,
  usage: usageSchema,
});
const chatResponse = doneSchema.extend({ answer: z.string() });
nameSchema(chatResponse, 'ChatAnswer');

export const chatRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/chat',
    // Reads (chat saves nothing when its client leaves): cancelled when nobody waits for them.
    cancelOnDisconnect: true,
    access: 'required',
    keyScope: 'read',
    tag: 'Chat',
    operationId: 'chat',
    summary: 'Answer a question from the documents',
    description: [
      'Answers as JSON by default. With `Accept: text/event-stream` the answer streams as server-sent ' +
        'events: `delta` {text} pieces, then one `done` with the metadata of the JSON answer',
      '(without `answer`), or one `error` {detail} if the pipeline fails after the stream started; the stream ' +
        'then closes. A client that disconnects stops generation, and nothing is saved.',
      "The turn is saved to the conversation once the answer is complete. Another user's conversation_id answers " +
        '404 before any stream starts; an id no conversation has starts a new conversation with it.',
    ].join(' '),
    request: { body: chatBody },
    responses: {
      200: { description: 'The answer (JSON), or an event stream (text/event-stream).', schema: chatResponse },
      404: { description: "The conversation does not exist or is not the caller's." },
      422: {
        description: "Empty, over-long or non-string query; or a question too long for the model's context window.",
      },
      503: { description: 'The model could not answer (JSON mode).' },
    },
    deps: { chat: chatTokens.service },
    async handler({ deps, principal, body, req, res, kernel }) {
      const asked = {
        query: body.query,
        conversationId: body.conversation_id ?? null,
        topK: body.top_k,
        clientIp: req.ip ?? null,
        ...(body.filters ? { filters: body.filters } : {}),
      };
      const request = await deps.chat.prepare(principal!, asked);
      const controller = new AbortController();
      // 'close' on the response fires when the client goes away before the answer is finished.
      res.on('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      const events = deps.chat.answer(principal!, request, controller.signal);
      if (req.accepts(['application/json', 'text/event-stream']) === 'text/event-stream') {
        await streamEvents(res, events, kernel.logger);
        return 'handled';
      }
      const outcome = await collectOutcome(events);
      if (!outcome) throw new DocqaError('bad_request', 'The request was aborted by the client.');
      const { answer, ...rest } = outcome;
      return { status: 200, body: { answer, ...rest } };
    },
  }),
];

/** Writes the pipeline's events as SSE; a failure after the headers went out becomes an `error` event. */
async function streamEvents(res: Response, events: AsyncIterable<ChatEvent>, logger: Logger): Promise<void> {
  startEventStream(res);
  const writer = new EventStreamWriter(res);
  const event = (type: string, payload: unknown) => writer.send(`event: ${type}\ndata: ${JSON.stringify(payload)}\n\n`);
  const keepAlive = setInterval(() => writer.comment('keep-alive'), keepAliveMs);
  try {
    for await (const item of events) {
      if (item.type === 'delta') event('delta', { text: item.text });
      else event('done', withoutAnswer(item.outcome));
    }
  } catch (error) {
    const detail = DocqaError.is(error)
      ? error.message
      : 'The answer could not be completed because of an internal error.';
    // A model that is down is an operations matter (warn); anything unexpected is a bug (error, with its stack).
    if (!DocqaError.is(error)) logger.error({ err: error }, 'chat stream failed');
    else if (error.status >= 500) logger.warn({ code: error.code, detail }, 'chat stream failed');
    event('error', { detail });
  } finally {
    clearInterval(keepAlive);
    writer.end();
  }
}

function withoutAnswer<T extends { answer: string }>(outcome: T): Omit<T, 'answer'> {
  const { answer: _answer, ...rest } = outcome;
  return rest;
}
