import { createToken, type LlmBackend } from '@docqa/plugin-api';
import type { Principal } from '../identity/contract.js';
import type { SearchFilters, SearchItem, SearchResult } from '../search/contract.js';
import type { Classification } from './classify.js';
import type { Conversation, ConversationSummary } from './conversation-store.js';
import type { FeedbackInput, TurnFeedback } from './feedback.js';
import type { PriorTurn } from './prompt.js';
import type { TokenBudgetReport } from './token-budget.js';

// What other code may know of the chat module: the pipeline, the conversations, and their shapes.

export type { Classification } from './classify.js';
export type { Conversation, ConversationSummary, ConversationTurn } from './conversation-store.js';
export type { PriorTurn } from './prompt.js';
export { maxFeedbackCommentLength, type FeedbackInput, type TurnFeedback } from './feedback.js';
export type { TokenBudgetReport } from './token-budget.js';
/** The instructions every grounded answer starts with (hosted and local backends alike). */
export { systemPrompt } from './prompt.js';
export { classifierLlmStatus, type ClassifierLlmStatus } from './classifier-llm.js';

/** What chat answers when no passage the caller may read matches. */
export const noPassagesAnswer = 'No document you can access answers this question.';

export interface ChatRequest {
  query: string;
  conversationId: string | null;
  topK: number;
  filters?: SearchFilters;
  /** The client's address, for the audit log. */
  clientIp?: string | null;
  /**
   * Set by prepare(): the client chose `conversationId` for a conversation that does not exist yet
   * (the spec has no endpoint that creates one), so the first answer creates it under that id.
   */
  startsConversation?: boolean;
  /**
   * The conversation as the client holds it (the OpenAI-compatible API sends every earlier message):
   * used for follow-up rewriting and the prompt instead of a stored conversation, and nothing is saved.
   */
  clientHistory?: PriorTurn[];
}

export type ChatSource = SearchItem & { index: number };

export interface ChatOutcome {
  conversation_id: string;
  answer: string;
  sources: ChatSource[];
  token_budget: TokenBudgetReport | null;
  retrieval_settings: SearchResult['retrieval_settings'] & { classification: Classification };
  /** Milliseconds per stage; `rerank` as search reports it (only when RAG_RERANK_ENABLED). */
  timing: { classify: number; retrieve: number; rerank?: number; generate: number; total: number };
  /** Tokens of the prompt (as the token budget counted it) and the answer: by the model's tokenizer, else estimated. */
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export type ChatEvent = { type: 'delta'; text: string } | { type: 'done'; outcome: ChatOutcome };

/**
 * The chat pipeline: rewrite a follow-up, classify, retrieve, fit the prompt into the context
 * window, generate, then save the turn.
 */
export interface ChatService {
  /** The model chosen with `docqa models use`, else the configured backend, or a 503 when the edition has none. */
  backend(): LlmBackend;
  /** Checks that can answer with an HTTP status, before a stream starts; answers the request to run. */
  prepare(principal: Principal, request: ChatRequest): Promise<ChatRequest>;
  /**
   * Yields the answer's pieces as they come and ends with one `done` event; throws on failure, and
   * stops without saving anything when `signal` aborts (the client went away).
   */
  answer(principal: Principal, request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatEvent>;
}

/** Conversations belong to one user: another user's id is indistinguishable from an unknown one (404). */
export interface Conversations {
  list(userId: string, limit: number, offset: number): Promise<{ items: ConversationSummary[]; total: number }>;
  get(userId: string, id: string): Promise<Conversation>;
  delete(userId: string, id: string): Promise<void>;
  /**
   * Sets (or with a null rating clears) the owner's feedback on the turn at `index`, 0-based in the
   * order `get` shows the turns; answers what is stored. Audited as `chat.feedback`.
   */
  setFeedback(
    principal: Principal,
    target: { conversationId: string; index: number; clientIp: string | null },
    input: FeedbackInput,
  ): Promise<TurnFeedback | null>;
  /** Deletes conversations without activity for `maxAgeDays`; answers how many went. */
  purgeOlderThan(maxAgeDays: number): Promise<number>;
}

export async function collectOutcome(events: AsyncIterable<ChatEvent>): Promise<ChatOutcome | null> {
  for await (const event of events) if (event.type === 'done') return event.outcome;
  return null;
}

export const chatTokens = {
  service: createToken<ChatService>('chat.service'),
  conversations: createToken<Conversations>('chat.conversations'),
};
