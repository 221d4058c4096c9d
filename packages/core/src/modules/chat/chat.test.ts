import { expect } from 'chai';
import {
  defineModule,
  DocqaError,
  type AuditEvent,
  type Db,
  type GenerateRequest,
  type LlmBackend,
  type SqlExecutor,
} from '@docqa/plugin-api';
import llmOpenAi from '@docqa/plugin-llm-openai';
import { startChatCompletionsServer, type ChatCompletionsServer } from '@docqa/plugin-testkit';
import { provide, startTestModules, type TestKernel } from '@docqa/kernel/testing';
import type { CurrentModels } from '../models/contract.js';
import { modelsTokens } from '../models/contract.js';
import { rulesTokens, type RulesService } from '../rules/contract.js';
import { searchTokens, type SearchRequest, type SearchResult, type SearchService } from '../search/contract.js';
import { chatTokens, collectOutcome, noPassagesAnswer, type ChatService, type Conversations } from './contract.js';
import { chatModule } from './index.js';
import { ConversationStore } from './conversation-store.js';

// The users' table as conversations reference it; in the product the identity migrations make it.
const usersStandIn = defineModule({
  id: 'test-users',
  deps: {},
  provides: {},
  migrations: [{ name: '0001_test_app_user', up: ['create table app_user (id uuid primary key)'] }],
  init: () => ({}),
});
const ada = { userId: '5e0c4a4e-0000-4000-8000-000000000001', username: 'ada', role: 'viewer' as const };
const bob = { userId: '5e0c4a4e-0000-4000-8000-000000000002', username: 'bob', role: 'viewer' as const };
const passage = 'The cooling period of the Zorblax-1 lasts nine hours.';

/** Search as the search module answers: one passage for a question about cooling, nothing otherwise. */
const searchResult = (request: SearchRequest): SearchResult => ({
  items: /cooling/i.test(request.query)
    ? [
        {
          chunk_id: '7a1d2f9e-0000-4000-8000-000000000001',
          document_id: '7a1d2f9e-0000-4000-8000-0000000000d1',
          title: 'Zorblax manual',
          path: 'zorblax.md',
          text: passage,
          score: 1,
          metadata: {},
          location: {
            page_start: null,
            page_end: null,
            heading_path: [],
            sheet: null,
            row_start: null,
            row_end: null,
            char_start: 0,
            char_end: passage.length,
          },
        },
      ]
    : [],
  retrieval_settings: { mode: 'lexical', top_k: request.topK, filters: {}, rewritten_query: null },
  timing: { retrieve: 1, total: 1 },
});
const searchStandIn: SearchService = {
  checkFilters: () => undefined,
  search: async (_principal, request) => searchResult(request),
  searchPassages: async (_principal, request) => {
    const result = searchResult(request);
    return { result, languages: new Map(result.items.map((item) => [item.chunk_id, 'en'])) };
  },
};
const noRules = { allRules: async () => [], runner: undefined } as unknown as RulesService;
/** A backend switched in at run time (the models module's job in the product); null: the configured one. */
let switchedBackend: LlmBackend | null = null;
const configuredModels: CurrentModels = { switchedChatBackend: () => switchedBackend, embedder: () => null };

describe('chat module (without the HTTP server)', function () {
  this.timeout(60_000);
  let llm: ChatCompletionsServer;
  let kernel: TestKernel;
  let chat: ChatService;
  let conversations: Conversations;
  const audited: AuditEvent[] = [];

  before(async () => {
    llm = await startChatCompletionsServer({ apiKey: 'sk-chat-module-test', reply: 'Nine hours [1].' });
    kernel = await startTestModules({
      plugins: [{ plugin: llmOpenAi, options: { baseUrl: llm.baseUrl, apiKey: 'sk-chat-module-test', model: 'm' } }],
      modules: [usersStandIn, chatModule],
      audit: { record: async (event) => void audited.push(event) },
      provide: [
        provide(searchTokens.service, searchStandIn),
        provide(rulesTokens.service, noRules),
        provide(modelsTokens.current, configuredModels),
      ],
    });
    for (const user of [ada, bob]) await kernel.db.query('insert into app_user (id) values ($1)', [user.userId]);
    chat = kernel.resolve(chatTokens.service);
    conversations = kernel.resolve(chatTokens.conversations);
  });
  after(async () => {
    await kernel?.dispose();
    await llm?.close();
  });

  const ask = async (principal: typeof ada, query: string, conversationId: string | null = null) => {
    const request = await chat.prepare(principal, { query, conversationId, topK: 3 });
    return collectOutcome(chat.answer(principal, request, new AbortController().signal));
  };

  it('answers from the retrieved passage with the configured LLM, cites it and keeps the conversation', async () => {
    const outcome = await ask(ada, 'How long is the cooling period?');
    expect(outcome?.answer).to.equal('Nine hours [1].');
    expect(outcome?.sources.map((source) => source.text)).to.deep.equal([passage]);
    expect(outcome?.usage.total_tokens).to.be.greaterThan(0);
    const prompt = JSON.stringify(llm.requests.at(-1)?.body?.messages);
    expect(prompt).to.contain(passage);
    const page = await conversations.list(ada.userId, 10, 0);
    expect(page.items.map((item) => item.id)).to.deep.equal([outcome?.conversation_id]);
    expect((await conversations.get(ada.userId, outcome!.conversation_id)).turns).to.have.length(1);
  });

  it("hands the answerer each passage's stored language, and keeps it out of the sources", async () => {
    const grounded: GenerateRequest['grounding'][] = [];
    switchedBackend = {
      capabilities: { streaming: true, tokenizer: false, generative: false },
      info: async () => ({ backend: 'extractive', model: 'recording', contextLength: null, gpu: false }),
      async *generate(request) {
        grounded.push(request.grounding);
        yield 'Nine hours [1].';
      },
    };
    try {
      const outcome = await ask(ada, 'How long is the cooling period?');
      expect(grounded.map((grounding) => grounding?.passages.map((passage) => passage.language))).to.deep.equal([
        ['en'],
      ]);
      expect(outcome?.sources).to.have.length(1);
      expect(outcome?.sources[0]).to.not.have.property('language');
    } finally {
      switchedBackend = null;
    }
  });

  it('says no document answers when nothing is retrieved, without calling the LLM', async () => {
    const calls = llm.requests.length;
    const outcome = await ask(ada, 'What is the capital of France?');
    expect(outcome?.answer).to.equal(noPassagesAnswer);
    expect(llm.requests.length).to.equal(calls);
  });

  it("never shows or continues another user's conversation (404, as an unknown one)", async () => {
    const mine = await ask(ada, 'And the cooling period again?');
    const error = await chat
      .prepare(bob, { query: 'cooling?', conversationId: mine!.conversation_id, topK: 3 })
      .catch((caught: unknown) => caught);
    expect(DocqaError.is(error, 'not_found')).to.equal(true);
    const read = await conversations.get(bob.userId, mine!.conversation_id).catch((caught: unknown) => caught);
    expect(DocqaError.is(read, 'not_found')).to.equal(true);
  });

  it('keeps both of two answers to one conversation that finish together, and stamps the conversation', async () => {
    const first = await ask(ada, 'How long is the cooling period?');
    const id = first!.conversation_id;
    const before = (await conversations.list(ada.userId, 100, 0)).items.find((item) => item.id === id);
    await Promise.all([ask(ada, 'Cooling, the second time?', id), ask(ada, 'Cooling, the third time?', id)]);
    const turns = (await conversations.get(ada.userId, id)).turns;
    expect(turns.map((turn) => turn.query).sort()).to.deep.equal(
      ['Cooling, the second time?', 'Cooling, the third time?', 'How long is the cooling period?'].sort(),
    );
    const after = (await conversations.list(ada.userId, 100, 0)).items.find((item) => item.id === id);
    expect(Date.parse(after!.updated_at)).to.be.greaterThan(Date.parse(before!.updated_at));
  });

  it("keeps the owner's thumbs up or down with the turn, changes and clears it, and audits it", async () => {
    const first = await ask(ada, 'How long is the cooling period?');
    const id = first!.conversation_id;
    await ask(ada, 'And the cooling period, once more?', id);
    const at = (index: number) => ({ conversationId: id, index, clientIp: '203.0.113.7' });
    audited.length = 0;
    const down = await conversations.setFeedback(ada, at(1), { rating: 'down', comment: '  Wrong unit.  ' });
    expect(down).to.include({ rating: 'down', comment: 'Wrong unit.' });
    await conversations.setFeedback(ada, at(0), { rating: 'up' });
    let turns = (await conversations.get(ada.userId, id)).turns;
    expect(turns.map((turn) => turn.feedback?.rating ?? null)).to.deep.equal(['up', 'down']);
    expect(turns[1]?.feedback?.comment).to.equal('Wrong unit.');
    expect(audited.map((event) => [event.type, event.target, event.ip, event.details])).to.deep.equal([
      ['chat.feedback', id, '203.0.113.7', { turn: 1, rating: 'down', with_comment: true }],
      ['chat.feedback', id, '203.0.113.7', { turn: 0, rating: 'up', with_comment: false }],
    ]);
    expect(await conversations.setFeedback(ada, at(1), { rating: null, comment: 'ignored' })).to.equal(null);
    turns = (await conversations.get(ada.userId, id)).turns;
    expect(turns.map((turn) => turn.feedback?.rating ?? null)).to.deep.equal(['up', null]);
  });

  it("refuses feedback on another user's conversation and on a turn that does not exist (404)", async () => {
    const mine = await ask(ada, 'Cooling period, for the feedback test?');
    const id = mine!.conversation_id;
    const target = (index: number) => ({ conversationId: id, index, clientIp: null });
    for (const [who, index] of [
      [bob, 0],
      [ada, 1],
    ] as const) {
      const refused = await conversations.setFeedback(who, target(index), { rating: 'up' }).catch((e: unknown) => e);
      expect(DocqaError.is(refused, 'not_found'), `${who.username} turn ${index}`).to.equal(true);
    }
    const tooLong = await conversations
      .setFeedback(ada, target(0), { rating: 'down', comment: 'x'.repeat(2001) })
      .catch((e: unknown) => e);
    expect(DocqaError.is(tooLong, 'validation_failed')).to.equal(true);
    expect((await conversations.get(ada.userId, id)).turns[0]?.feedback).to.equal(null);
  });

  it("keeps a turn in two statements (a new conversation's in one), trims, leaves another's id", async () => {
    const statements: string[] = [];
    const recorded = (executor: SqlExecutor): SqlExecutor => ({
      query: (sql, params) => (statements.push(sql), executor.query(sql, params)),
    });
    const db: Db = {
      mode: kernel.db.mode,
      ...recorded(kernel.db),
      transaction: (work) => (statements.push('begin'), kernel.db.transaction((tx) => work(recorded(tx)))),
    };
    const store = new ConversationStore(db, { record: async () => undefined });
    const turn = (query: string) => ({
      query,
      rewritten_query: null,
      answer: 'Nine hours.',
      sources: [],
      retrieval_settings: {},
      token_budget: null,
      timing: { total: 1 },
    });
    const id = await store.appendTurn(bob.userId, { id: null, create: true }, turn('first'), 2);
    // Nobody knows a new id yet: no row to lock, so no transaction either.
    expect(statements, 'a new conversation').to.have.length(1);
    for (const query of ['second', 'third']) {
      statements.length = 0;
      await store.appendTurn(bob.userId, { id, create: false }, turn(query), 2);
      expect(statements, query).to.have.length(3);
      expect(statements[0], query).to.equal('begin');
    }
    expect((await store.get(bob.userId, id)).turns.map((kept) => kept.query)).to.deep.equal(['second', 'third']);
    const taken = await store
      .appendTurn(ada.userId, { id, create: true }, turn('not mine'), 2)
      .catch((e: unknown) => e);
    expect(DocqaError.is(taken, 'not_found')).to.equal(true);
    expect((await store.get(bob.userId, id)).turns).to.have.length(2);
    await store.delete(bob.userId, id);
  });

  it('purges conversations without activity past the age the retention sweep passes', async () => {
    await kernel.db.query(`update conversation set updated_at = now() - interval '40 days' where user_id = $1`, [
      ada.userId,
    ]);
    expect(await conversations.purgeOlderThan(30)).to.be.greaterThan(0);
    expect((await conversations.list(ada.userId, 10, 0)).total).to.equal(0);
  });
});
