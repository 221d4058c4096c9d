import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DocqaError, providerTokens, tokens, type AuditService, type LlmBackend } from '@docqa/plugin-api';
import type { Kernel } from '@docqa/kernel';
import type { Principal } from '@docqa/core/identity';
import type { SearchFilters, SearchItem, SearchResult, SearchService } from '@docqa/core/search';
import type { RulesService } from '@docqa/core/rules';
import type { CurrentModels } from '@docqa/core/models';
import { QueryClassifier, type Classification } from './classify.js';
import { ConversationStore } from './conversation-store.js';
import { buildMessages, groundingOf, type PriorTurn } from './prompt.js';
import { rewriteFollowUp } from './rewrite.js';
import { estimateTokens, fitToBudget, type TokenBudgetReport } from './token-budget.js';
import type { ChatRequestOutcome, LlmMetrics } from '@docqa/core/metrics';

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
  timing: { classify: number; retrieve: number; generate: number; total: number };
  /** Tokens of the prompt (as the token budget counted it) and the answer: by the model's tokenizer, else estimated. */
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export type ChatEvent = { type: 'delta'; text: string } | { type: 'done'; outcome: ChatOutcome };

/** Tokens an answer may take, unless a small context window leaves less (see fitToBudget). */
const maxAnswerTokens = 1024;
/** Earlier turns offered to the prompt, newest kept first when the budget is tight. */
const promptHistoryTurns = 4;
/** Grounded answers should repeat the documents, not improvise. */
const answerTemperature = 0.1;

export const noPassagesAnswer = 'No document you can access answers this question.';

/**
 * The chat pipeline: rewrite a follow-up, classify, retrieve, fit the prompt into the context
 * window, generate, then save the turn. It yields the answer's pieces as they come and ends with
 * one `done` event; it throws on failure, and stops without saving anything when `signal` aborts
 * (the client went away).
 */
export class ChatService {
  readonly conversations: ConversationStore;
  readonly #classifier: QueryClassifier;
  readonly #audit: AuditService;

  constructor(
    private readonly kernel: Kernel,
    private readonly search: SearchService,
    rules: RulesService,
    private readonly models: CurrentModels,
    private readonly metrics: LlmMetrics | null = null,
  ) {
    this.conversations = new ConversationStore(kernel.db);
    this.#classifier = new QueryClassifier(rules, rules.runner, kernel.logger.child({ component: 'classifier' }));
    this.#audit = kernel.resolve(tokens.audit);
  }

  /** The model chosen with `docqa models use`, else the configured backend, or a 503 when the edition has none. */
  backend(): LlmBackend {
    const switched = this.models.switchedChatBackend();
    if (switched) return switched;
    if (!this.kernel.container.has(providerTokens.llm))
      throw new DocqaError('unavailable', 'No LLM backend is configured in this edition.');
    return this.kernel.resolve(providerTokens.llm);
  }

  /** Checks that can answer with an HTTP status, before a stream starts; answers the request to run. */
  async prepare(principal: Principal, request: ChatRequest): Promise<ChatRequest> {
    this.backend();
    this.search.checkFilters(request.filters);
    if (request.conversationId === null) return request;
    const state = await this.conversations.ownership(principal.userId, request.conversationId);
    if (state === 'another user')
      throw new DocqaError('not_found', `Conversation ${request.conversationId} was not found.`);
    return { ...request, startsConversation: state === 'none' };
  }

  async *answer(principal: Principal, request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatEvent> {
    // Also what a consumer that stops reading (the client went away) leaves it at.
    let requestOutcome: ChatRequestOutcome = 'aborted';
    try {
      for await (const event of this.#answer(principal, request, signal)) {
        if (event.type === 'done') requestOutcome = event.outcome.sources.length === 0 ? 'no_passages' : 'answered';
        yield event;
      }
    } catch (error) {
      requestOutcome = signal.aborted ? 'aborted' : 'failed';
      throw error;
    } finally {
      this.metrics?.requestEnded(requestOutcome);
    }
  }

  async *#answer(principal: Principal, request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatEvent> {
    const started = performance.now();
    const backend = this.backend();
    const settings = this.kernel.settings;
    try {
      const rewriteTurns =
        settings.get('RAG_QUERY_REWRITE_ENABLED') === true ? Number(settings.get('RAG_QUERY_REWRITE_MAX_TURNS')) : 0;
      const id = request.conversationId;
      const turns = Math.max(rewriteTurns, promptHistoryTurns);
      const stored = () => (id === null ? [] : this.conversations.recentTurns(principal.userId, id, turns));
      const history: PriorTurn[] = request.clientHistory ?? (await stored());

      const rewritten =
        rewriteTurns > 0
          ? await rewriteFollowUp(request.query, history.slice(-rewriteTurns), backend, signal, this.kernel.logger)
          : null;
      const retrievalQuery = rewritten ?? request.query;
      const classifierLlm =
        this.kernel.config.values.RAG_CLASSIFIER_LLM_ENABLED && backend.capabilities.generative
          ? { backend, maxTokens: this.kernel.config.values.RAG_CLASSIFIER_LLM_MAX_TOKENS }
          : null;
      const classification = await this.#classifier.classify(retrievalQuery, classifierLlm, signal);
      const classified = performance.now();

      const retrieved = await this.#retrieve(principal, retrievalQuery, request, classification);
      const retrievedAt = performance.now();

      const budget = await fitToBudget({
        limit: this.kernel.effectiveNCtx,
        maxAnswerTokens,
        question: request.query,
        passages: retrieved.items,
        history: history.slice(-promptHistoryTurns),
        count: backend.countTokens ? (text) => backend.countTokens!(text) : async (text) => estimateTokens(text),
      });
      const sources = budget.passages.map((item, index) => ({ ...item, index: index + 1 }));

      let answer = '';
      if (sources.length === 0) {
        answer = noPassagesAnswer;
        yield { type: 'delta', text: answer };
      } else {
        const messages = buildMessages(request.query, sources, budget.history);
        const generationStarted = performance.now();
        let firstPieceAt: number | null = null;
        for await (const piece of backend.generate(
          {
            messages,
            maxTokens: budget.reservedCompletion,
            temperature: answerTemperature,
            grounding: groundingOf(retrievalQuery, sources),
          },
          signal,
        )) {
          if (signal.aborted) break;
          firstPieceAt ??= performance.now();
          answer += piece;
          yield { type: 'delta', text: piece };
        }
        if (!signal.aborted)
          await this.#recordGeneration(backend, budget.estimatedPrompt, answer, {
            started: generationStarted,
            firstPieceAt,
            ended: performance.now(),
          });
      }
      if (signal.aborted) return;
      const finished = performance.now();
      // No passage, no model asked: nothing was sent or generated.
      const promptTokens = sources.length === 0 ? 0 : budget.estimatedPrompt;
      const completionTokens = sources.length === 0 ? 0 : await countAnswer(backend, answer);

      const outcome: Omit<ChatOutcome, 'conversation_id'> = {
        answer,
        sources,
        token_budget: budget.report,
        retrieval_settings: { ...retrieved.retrieval_settings, rewritten_query: rewritten, classification },
        timing: {
          classify: ms(classified - started),
          retrieve: ms(retrievedAt - classified),
          generate: ms(finished - retrievedAt),
          total: ms(finished - started),
        },
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
      };
      const conversationId = await this.#save(principal, request, outcome);
      if (settings.get('RAG_LOG_TOKEN_USAGE') === true) {
        this.kernel.logger.info(
          {
            conversation: conversationId,
            token_budget: budget.report,
            estimated_prompt: budget.estimatedPrompt,
            reserved_completion: budget.reservedCompletion,
            limit: this.kernel.effectiveNCtx,
          },
          'chat token usage',
        );
      }
      await this.#recordQuery(principal, request, conversationId, 'success', {
        sources: sources.length,
        mode: outcome.retrieval_settings.mode,
      });
      yield { type: 'done', outcome: { conversation_id: conversationId, ...outcome } };
    } catch (error) {
      if (signal.aborted) return;
      await this.#recordQuery(principal, request, request.conversationId, 'failure', {
        error: error instanceof DocqaError ? error.code : 'internal',
      });
      throw error;
    }
  }

  /** Token counts as the token budget makes them: the model's tokenizer when it has one, else the estimate. */
  async #recordGeneration(
    backend: LlmBackend,
    promptTokens: number,
    answer: string,
    at: { started: number; firstPieceAt: number | null; ended: number },
  ): Promise<void> {
    if (!this.metrics) return;
    try {
      const completionTokens = await countAnswer(backend, answer);
      this.metrics.generated({
        backend: await this.metrics.backendName(backend),
        promptTokens,
        completionTokens,
        firstTokenSeconds: at.firstPieceAt === null ? null : (at.firstPieceAt - at.started) / 1000,
        seconds: (at.ended - at.started) / 1000,
      });
    } catch (error) {
      this.kernel.logger.debug({ err: error }, 'recording generation metrics failed');
    }
  }

  /**
   * Search with the request's filters and the classifier's; request filters win a field both set.
   * When the classifier's filters leave nothing, retrieval runs again without them: a rule that
   * misreads a question must not hide every answer.
   */
  async #retrieve(
    principal: Principal,
    query: string,
    request: ChatRequest,
    classification: Classification,
  ): Promise<SearchResult> {
    const classified = Object.keys(classification.filters).length > 0;
    const metadata = { ...classification.filters, ...request.filters?.metadata };
    const filters: SearchFilters = { ...request.filters, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) };
    const result = await this.search.search(principal, { query, topK: request.topK, filters });
    if (result.items.length > 0 || !classified) return result;
    return this.search.search(principal, {
      query,
      topK: request.topK,
      ...(request.filters ? { filters: request.filters } : {}),
    });
  }

  async #save(
    principal: Principal,
    request: ChatRequest,
    outcome: Omit<ChatOutcome, 'conversation_id'>,
  ): Promise<string> {
    // The client keeps its own conversation: nothing to save, and an id for this answer alone.
    if (request.clientHistory) return crypto.randomUUID();
    const maxTurns = Number(this.kernel.settings.get('RAG_CONVERSATION_MAX_TURNS'));
    // Stored sources keep where the answer came from, not a second copy of the chunk text.
    const sources = outcome.sources.map(({ text: _text, ...source }) => source);
    return this.conversations.appendTurn(
      principal.userId,
      { id: request.conversationId, create: request.conversationId === null || request.startsConversation === true },
      {
        query: request.query,
        rewritten_query: outcome.retrieval_settings.rewritten_query,
        answer: outcome.answer,
        sources,
        retrieval_settings: outcome.retrieval_settings,
        token_budget: outcome.token_budget as Record<string, unknown> | null,
        timing: outcome.timing,
      },
      maxTurns,
    );
  }

  /** Audit event chat.query; the question itself only when RAG_LOG_REDACT_QUERIES is off. */
  async #recordQuery(
    principal: Principal,
    request: ChatRequest,
    conversationId: string | null,
    outcome: 'success' | 'failure',
    details: Record<string, unknown>,
  ): Promise<void> {
    const redact = this.kernel.settings.get('RAG_LOG_REDACT_QUERIES') !== false;
    await this.#audit.record({
      type: 'chat.query',
      actor: { id: principal.userId, username: principal.username },
      ip: request.clientIp ?? null,
      target: conversationId,
      outcome,
      details: {
        ...details,
        ...(redact ? { query_redacted: true, query_length: request.query.length } : { query: request.query }),
      },
    });
  }
}

export async function collectOutcome(events: AsyncIterable<ChatEvent>): Promise<ChatOutcome | null> {
  for await (const event of events) if (event.type === 'done') return event.outcome;
  return null;
}

function countAnswer(backend: LlmBackend, answer: string): Promise<number> | number {
  return backend.countTokens ? backend.countTokens(answer) : estimateTokens(answer);
}

function ms(value: number): number {
  return Math.round(value * 100) / 100;
}
