import crypto from 'node:crypto';
import type { Response } from 'express';
import { z } from 'zod';
import { DocqaError, type Logger } from '@docqa/plugin-api';
import { defineRoute } from '../http/route.js';
import { collectOutcome, type ChatEvent, chatTokens } from '@docqa/core/chat';
import {
  checkModel,
  chunk,
  completion,
  completionRequest,
  docqaModel,
  modelCreated,
  questionAndHistory,
} from '../openai/completions.js';
import { EventStreamWriter, startEventStream } from '../http/event-stream.js';
import { openAiError } from '../http/openai-errors.js';

/** Comment lines keep proxies from closing a stream that is quiet while retrieval or the model work. */
const keepAliveMs = 15_000;
const base = '/api/openai/v1';

const count = z.number().int();
const modelSchema = z.object({ id: z.string(), object: z.literal('model'), created: count, owned_by: z.string() });
const modelList = z.object({ object: z.literal('list'), data: z.array(modelSchema) });
const model = { id: docqaModel, object: 'model' as const, created: modelCreated, owned_by: 'docqa' };
const errorSchema = z.object({
  error: z.object({ message: z.string(), type: z.string(), param: z.string().nullable(), code: z.string().nullable() }),
});
const usageSchema = z.object({ prompt_tokens: count, completion_tokens: count, total_tokens: count });
const choiceSchema = z.object({
  index: z.number().int(),
  message: z.object({ role: z.literal('assistant'), content: z.string() }),
  finish_reason: z.literal('stop'),
});
const completionSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(choiceSchema),
  usage: usageSchema,
  docqa_sources: z
    .array(z.record(z.string(), z.unknown()))
    .describe(
      'The passages cited as [n] (`index` is n): chunk_id, document_id, title, path, text, score, metadata, ' +
        'location (SourceLocation: pages, heading path, sheet, rows, offsets in the extracted text).',
    ),
});
const unknownModel = { description: 'Unknown model.', schema: errorSchema };
const errors = {
  400: { description: 'Invalid body (OpenAI error shape).', schema: errorSchema },
  401: { description: 'No, or a bad, API key or access token.', schema: errorSchema },
  403: { description: 'The key lacks the read scope.', schema: errorSchema },
};

// Every route here answers failures, its own and those of the access check, in OpenAI's shape.
const common = { access: 'required', keyScope: 'read', errorFormat: 'openai', tag: 'OpenAI-compatible API' } as const;

export const openAiRoutes = [
  defineRoute({
    ...common,
    method: 'get',
    path: `${base}/models`,
    operationId: 'openAiListModels',
    summary: 'The models an OpenAI client can pick',
    description: '`docqa` answers from every document the caller may read.',
    responses: { 200: { description: 'The list.', schema: modelList }, ...errors },
    handler: () => ({ status: 200, body: { object: 'list', data: [model] } }),
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: `${base}/models/{model}`,
    operationId: 'openAiGetModel',
    summary: 'One model',
    request: { params: z.object({ model: z.string() }) },
    responses: { 200: { description: 'The model.', schema: modelSchema }, ...errors, 404: unknownModel },
    handler: ({ params }) => {
      checkModel(params.model);
      return { status: 200, body: model };
    },
  }),
  defineRoute({
    ...common,
    method: 'post',
    path: `${base}/chat/completions`,
    // A read, as /api/chat is (it saves nothing): its statements are cancelled when nobody waits for them.
    cancelOnDisconnect: true,
    operationId: 'openAiChatCompletion',
    summary: "Answer the last user message from the documents, as OpenAI's chat completions",
    description: [
      "Runs DocQA's chat pipeline (classification, retrieval with the caller's access, token budget,",
      'the configured model or extractive answers) on the last user message; earlier user and assistant',
      'messages serve follow-up rewriting and the prompt. Nothing is saved as a conversation.',
      'With `stream: true`, `chat.completion.chunk` events end with `data: [DONE]`; the last chunk with a',
      'choice carries `docqa_sources`, and `stream_options.include_usage` adds a chunk with `usage`.',
      "Errors have OpenAI's shape `{error: {message, type, param, code}}`.",
    ].join(' '),
    request: { body: completionRequest },
    responses: {
      200: { description: 'The answer, or a stream of chunks (text/event-stream).', schema: completionSchema },
      ...errors,
      404: unknownModel,
    },
    deps: { chat: chatTokens.service },
    async handler({ deps, principal, body, req, res, kernel }) {
      checkModel(body.model);
      const { question, history } = questionAndHistory(body.messages);
      // No conversation id: the client holds the conversation and nothing is saved.
      const clientIp = req.ip ?? null;
      const asked = { query: question, conversationId: null, topK: 6, clientIp, clientHistory: history };
      const request = await deps.chat.prepare(principal!, asked);
      const controller = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      const events = deps.chat.answer(principal!, request, controller.signal);
      const id = `chatcmpl-${crypto.randomUUID()}`;
      const created = Math.floor(Date.now() / 1000);
      if (body.stream) {
        const includeUsage = body.stream_options?.include_usage === true;
        await streamChunks(res, events, { id, created, includeUsage }, kernel.logger);
        return 'handled';
      }
      const outcome = await collectOutcome(events);
      if (!outcome) throw new DocqaError('bad_request', 'The request was aborted by the client.');
      return { status: 200, body: completion(id, created, outcome) };
    },
  }),
];

/** The pipeline's events as OpenAI chunks; a failure after the headers went out is an `error` event. */
async function streamChunks(
  res: Response,
  events: AsyncIterable<ChatEvent>,
  at: { id: string; created: number; includeUsage: boolean },
  logger: Logger,
): Promise<void> {
  startEventStream(res);
  // The pieces that are ready together (an extractive answer's words) leave in one write.
  const writer = new EventStreamWriter(res);
  const send = (payload: unknown) =>
    writer.send(`data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`);
  const keepAlive = setInterval(() => writer.comment('keep-alive'), keepAliveMs);
  try {
    send(chunk(at.id, at.created, { delta: { role: 'assistant', content: '' }, finish_reason: null }));
    for await (const event of events) {
      if (event.type === 'delta') {
        send(chunk(at.id, at.created, { delta: { content: event.text }, finish_reason: null }));
        continue;
      }
      send(chunk(at.id, at.created, { delta: {}, finish_reason: 'stop' }, { docqa_sources: event.outcome.sources }));
      if (at.includeUsage) send(chunk(at.id, at.created, null, { usage: event.outcome.usage }));
      send('[DONE]');
    }
  } catch (error) {
    // A model that is down is an operations matter (warn); anything unexpected is a bug (error, with its stack).
    const message = 'OpenAI-compatible chat stream failed';
    if (!DocqaError.is(error)) logger.error({ err: error }, message);
    else if (error.status >= 500) logger.warn({ code: error.code, detail: error.message }, message);
    const internal = () => new DocqaError('internal', 'The answer could not be completed: an internal error.');
    const known = DocqaError.is(error) ? error : internal();
    send(openAiError(known).body);
  } finally {
    clearInterval(keepAlive);
    writer.end();
  }
}
