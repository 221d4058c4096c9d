import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  DocqaError,
  type AuditService,
  type ConfigService,
  type ContextWindow,
  type LlmBackend,
  type Logger,
  type SettingsService,
} from '@docqa/plugin-api';
import type { Principal } from '../identity/contract.js';
import type { PassageSearch, SearchFilters, SearchService } from '../search/contract.js';
import type { RulesService } from '../rules/contract.js';
import type { CurrentModels } from '../models/contract.js';
import type { ChatRequestOutcome, LlmMetrics } from '../metrics/contract.js';
import {
  noPassagesAnswer,
  type ChatEvent,
  type Classification,
  type ChatOutcome,
  type ChatRequest,
  type ChatService,
} from './contract.js';
import { classifierLlmStatus } from './classifier-llm.js';
import { QueryClassifier } from './classify.js';
import type { ConversationStore } from './conversation-store.js';
import { buildMessages, groundingOf, type PriorTurn } from './prompt.js';
import { rewriteFollowUp } from './rewrite.js';
import { estimateTokens, fitToBudget } from './token-budget.js';

export interface ChatDeps {
  config: ConfigService;
  settings: SettingsService;
  logger: Logger;
  audit: AuditService;
  /** EFFECTIVE_N_CTX, read for every answer: a switched chat model changes it. */
  contextWindow: ContextWindow;
  /** The LLM plugin of the configuration; an edition may have none (chat answers 503). */
  configuredLlm: LlmBackend | undefined;
  conversations: ConversationStore;
  search: SearchService;
  rules: RulesService;
  models: CurrentModels;
  metrics: LlmMetrics | null;
}

/** Tokens an answer may take, unless a small context window leaves less (see fitToBudget). */
const maxAnswerTokens = 1024;
/** Earlier turns offered to the prompt, newest kept first when the budget is tight. */
const promptHistoryTurns = 4;
/** Grounded answers should repeat the documents, not improvise. */
const answerTemperature = 0.1;

/** The chat pipeline (ChatService in the contract says what each step promises). */
export class GroundedChatService implements ChatService {
  readonly #classifier: QueryClassifier;
  readonly #audit: AuditService;
  readonly #logger: Logger;
  readonly search: SearchService;
  readonly conversations: ConversationStore;
  readonly models: CurrentModels;
  readonly metrics: LlmMetrics | null;

  constructor(private readonly deps: ChatDeps) {
    this.#logger = deps.logger;
    this.#classifier = new QueryClassifier(
      deps.rules,
      deps.rules.runner,
      deps.logger.child({ component: 'classifier' }),
    );
    this.#audit = deps.audit;
    this.search = deps.search;
    this.conversations = deps.conversations;
    this.models = deps.models;
    this.metrics = deps.metrics;
  }

  backend(): LlmBackend {
    const switched = this.models.switchedChatBackend();
    if (switched) return switched;
    if (!this.deps.configuredLlm) throw new DocqaError('unavailable', 'No LLM backend is configured in this edition.');
    return this.deps.configuredLlm;
  }

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
    const settings = this.deps.settings;
    try {
      const rewriteTurns =
        settings.get('RAG_QUERY_REWRITE_ENABLED') === true ? Number(settings.get('RAG_QUERY_REWRITE_MAX_TURNS')) : 0;
      const id = request.conversationId;
      const turns = Math.max(rewriteTurns, promptHistoryTurns);
      const stored = () => (id === null ? [] : this.conversations.recentTurns(principal.userId, id, turns));
      const history: PriorTurn[] = request.clientHistory ?? (await stored());

      const rewritten =
        rewriteTurns > 0
          ? await rewriteFollowUp(request.query, history.slice(-rewriteTurns), backend, signal, this.#logger)
          : null;
      const retrievalQuery = rewritten ?? request.query;
      const classifierLlm = classifierLlmStatus(this.deps.config.get('RAG_CLASSIFIER_LLM_ENABLED') === true, backend)
        .active
        ? { backend, maxTokens: Number(this.deps.config.get('RAG_CLASSIFIER_LLM_MAX_TOKENS')) }
        : null;
      const classification = await this.#classifier.classify(retrievalQuery, classifierLlm, signal);
      const classified = performance.now();

      const { result: retrieved, languages } = await this.#retrieve(principal, retrievalQuery, request, classification);
      const retrievedAt = performance.now();

      const budget = await fitToBudget({
        limit: this.deps.contextWindow.get(),
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
            grounding: groundingOf(retrievalQuery, budget.passages, languages),
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
          ...(retrieved.timing.rerank !== undefined ? { rerank: retrieved.timing.rerank } : {}),
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
        this.#logger.info(
          {
            conversation: conversationId,
            token_budget: budget.report,
            estimated_prompt: budget.estimatedPrompt,
            reserved_completion: budget.reservedCompletion,
            limit: this.deps.contextWindow.get(),
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
      this.#logger.debug({ err: error }, 'recording generation metrics failed');
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
  ): Promise<PassageSearch> {
    const classified = Object.keys(classification.filters).length > 0;
    const metadata = { ...classification.filters, ...request.filters?.metadata };
    const filters: SearchFilters = { ...request.filters, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) };
    const found = await this.search.searchPassages(principal, { query, topK: request.topK, filters });
    if (found.result.items.length > 0 || !classified) return found;
    return this.search.searchPassages(principal, {
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
    const maxTurns = Number(this.deps.settings.get('RAG_CONVERSATION_MAX_TURNS'));
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
    const redact = this.deps.settings.get('RAG_LOG_REDACT_QUERIES') !== false;
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

function countAnswer(backend: LlmBackend, answer: string): Promise<number> | number {
  return backend.countTokens ? backend.countTokens(answer) : estimateTokens(answer);
}

function ms(value: number): number {
  return Math.round(value * 100) / 100;
}
