import { z } from 'zod';
import { chatTokens, maxFeedbackCommentLength } from '@docqa/core/chat';
import { nameSchema } from '../http/openapi.js';
import { defineRoute } from '../http/route.js';
import { idParams, pageQuery } from './identity-schemas.js';

const summarySchema = z.object({
  id: z.uuid(),
  title: z.string().describe('The first question, shortened.'),
  turns: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
nameSchema(summarySchema, 'ConversationSummary');

const feedbackSchema = z.object({
  rating: z.enum(['up', 'down']),
  comment: z.string().nullable(),
  updated_at: z.string(),
});
nameSchema(feedbackSchema, 'TurnFeedback');

const turnSchema = z.object({
  query: z.string(),
  rewritten_query: z.string().nullable(),
  answer: z.string(),
  sources: z.array(z.record(z.string(), z.unknown())).describe('As in the chat answer, without the chunk text.'),
  retrieval_settings: z.record(z.string(), z.unknown()),
  token_budget: z.record(z.string(), z.unknown()).nullable(),
  timing: z.record(z.string(), z.number()),
  created_at: z.string(),
  feedback: feedbackSchema.nullable().describe("The owner's thumbs up or down on this answer."),
});
nameSchema(turnSchema, 'ConversationTurn');

const turnParams = z.object({
  id: z.uuid(),
  index: z.coerce
    .number()
    .int()
    .min(0)
    .max(100_000)
    .describe('The turn, 0-based, in the order the conversation shows them.'),
});

const feedbackBody = z.object({
  rating: z.enum(['up', 'down']).nullable().describe('null clears the feedback (and its comment).'),
  comment: z.string().max(maxFeedbackCommentLength).nullable().optional(),
});

export const conversationRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/conversations',
    access: 'required',
    tag: 'Chat',
    operationId: 'listConversations',
    summary: "The caller's conversations, most recently active first",
    description:
      "Only the caller's own. Conversations without activity for " +
      'RAG_CONVERSATION_MAX_AGE_DAYS are purged by the daily retention sweep.',
    request: { query: pageQuery },
    responses: {
      200: {
        description: 'A page of conversations.',
        schema: z.object({
          items: z.array(summarySchema),
          total: z.number().int(),
          limit: z.number().int(),
          offset: z.number().int(),
        }),
      },
    },
    deps: { conversations: chatTokens.conversations },
    handler: async ({ deps, principal, query }) => {
      const page = await deps.conversations.list(principal!.userId, query.limit, query.offset);
      return { status: 200, body: { ...page, limit: query.limit, offset: query.offset } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/conversations/{id}',
    access: 'required',
    tag: 'Chat',
    operationId: 'getConversation',
    summary: "One of the caller's conversations with its turns, oldest first",
    description:
      "At most RAG_CONVERSATION_MAX_TURNS turns are kept. Another user's " +
      'conversation answers 404, as an unknown one does.',
    request: { params: idParams },
    responses: {
      200: {
        description: 'The conversation.',
        schema: summarySchema.omit({ turns: true }).extend({ turns: z.array(turnSchema) }),
      },
      404: { description: "Unknown, or not the caller's." },
    },
    deps: { conversations: chatTokens.conversations },
    handler: async ({ deps, principal, params }) => ({
      status: 200,
      body: await deps.conversations.get(principal!.userId, params.id),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/conversations/{id}',
    access: 'required',
    keyScope: 'read',
    tag: 'Chat',
    operationId: 'deleteConversation',
    summary: "Delete one of the caller's conversations",
    request: { params: idParams },
    responses: { 204: { description: 'Deleted.' }, 404: { description: "Unknown, or not the caller's." } },
    deps: { conversations: chatTokens.conversations },
    handler: async ({ deps, principal, params }) => {
      await deps.conversations.delete(principal!.userId, params.id);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/conversations/{id}/turns/{index}/feedback',
    access: 'required',
    keyScope: 'read',
    tag: 'Chat',
    operationId: 'setTurnFeedback',
    summary: "Rate one answer of the caller's conversation: thumbs up or down, with an optional comment",
    description: [
      'Stored with the turn (and gone with it when the conversation is trimmed or deleted); admins see the counts',
      'and the latest down-rated answers at GET /api/analytics/feedback. Audit event chat.feedback.',
      "Another user's conversation answers 404, as an unknown one does.",
    ].join(' '),
    request: { params: turnParams, body: feedbackBody },
    responses: {
      200: {
        description: 'The feedback now stored, null when cleared.',
        schema: z.object({ feedback: feedbackSchema.nullable() }),
      },
      404: { description: "Unknown conversation or turn, or not the caller's." },
    },
    deps: { conversations: chatTokens.conversations },
    handler: async ({ deps, principal, params, body, req }) => {
      const feedback = await deps.conversations.setFeedback(
        principal!,
        { conversationId: params.id, index: params.index, clientIp: req.ip ?? null },
        body,
      );
      return { status: 200, body: { feedback } };
    },
  }),
];
