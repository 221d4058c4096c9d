import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import connectorTemplate from '@docqa/example-connector-template';
import { startSearchServer, type Json, type SearchTestServer } from '../testing/search-server.test-support.js';
import { noPassagesAnswer } from '@docqa/core/chat';
import { chatStream } from '../testing/sse.test-support.js';
import { rawChunkedBody } from '../testing/chunked-body.test-support.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('chat (extractive backend: no model configured, ENTERPRISE)', function () {
  this.timeout(120_000);
  let t: SearchTestServer;
  let ids: Record<string, string>;
  let alice: string;
  let bob: string;

  before(async () => {
    t = await startSearchServer({ plan: 'ENTERPRISE', embedder: false });
    ids = await t.uploadTexts({
      'invoices.txt':
        'Invoice retention policy.\n\nInvoices are archived for ten years in the finance vault. Receipts are kept for two years.',
      'travel.txt':
        'Travel policy.\n\nEmployees book flights through the travel desk. Hotel costs are refunded up to 150 euros a night.',
      'merger.txt':
        'Project Zephyr.\n\nThe confidential merger with Zephyr Corporation closes in March, after the board vote.',
    });
    const finance = (await t.call('POST', '/api/groups', t.admin, { name: 'Finance' })).body.id as string;
    for (const name of ['alice', 'bob']) {
      const user = await t.call('POST', '/api/auth/users', t.admin, {
        username: name,
        password: `${name}-password-1`,
        role: 'viewer',
      });
      if (name === 'alice')
        expect((await t.call('PUT', `/api/groups/${finance}/members/${user.body.id}`, t.admin)).status).to.equal(204);
    }
    expect(
      (await t.call('PUT', `/api/access/document/${ids['merger.txt']}`, t.admin, { group_ids: [finance] })).status,
    ).to.equal(200);
    alice = await t.login('alice', 'alice-password-1');
    bob = await t.login('bob', 'bob-password-1');
  });
  after(() => t?.stop());

  it("answers JSON with the spec's fields: a cited answer, sources with title and path, retrieval settings and timing", async () => {
    const res = await t.call('POST', '/api/chat', alice, { query: 'How long are invoices archived?' });
    expect(res.status).to.equal(200);
    const body = res.body;
    const fields = ['sources', 'token_budget', 'retrieval_settings', 'timing', 'conversation_id', 'usage'];
    expect(body).to.have.all.keys('answer', ...fields);
    expect(body.conversation_id).to.match(uuid);
    expect(body.usage.prompt_tokens).to.be.greaterThan(0);
    expect(body.usage.completion_tokens).to.be.greaterThan(0);
    expect(body.usage.total_tokens).to.equal(body.usage.prompt_tokens + body.usage.completion_tokens);
    expect(body.answer).to.include('Invoices are archived for ten years in the finance vault.').and.include('[1]');
    expect(body.token_budget).to.equal(null);
    const [first] = body.sources as Json[];
    expect(first).to.include({
      index: 1,
      document_id: ids['invoices.txt'],
      title: 'invoices.txt',
      path: 'invoices.txt',
    });
    expect(first).to.have.all.keys(
      'index',
      'chunk_id',
      'document_id',
      'title',
      'path',
      'text',
      'score',
      'metadata',
      'location',
    );
    // A plain text file: page 1 (form feeds end its pages), no headings, sheet or rows; the passage's offsets.
    const location = first!.location as Json;
    expect(location).to.deep.include({
      page_start: 1,
      page_end: 1,
      heading_path: [],
      sheet: null,
      row_end: null,
    });
    expect(location.char_end - location.char_start).to.equal(first!.text.length);
    expect((body.sources as Json[]).map((source) => source.index)).to.deep.equal(
      body.sources.map((_: unknown, i: number) => i + 1),
    );
    expect(body.retrieval_settings).to.deep.include({ mode: 'lexical', top_k: 6, filters: {}, rewritten_query: null });
    expect(body.retrieval_settings.classification).to.deep.equal({ filters: {}, ambiguous: {} });
    expect(Object.keys(body.timing)).to.have.members(['classify', 'retrieve', 'generate', 'total']);
    for (const value of Object.values(body.timing)) expect(value).to.be.a('number').and.at.least(0);
    expect(body.timing.total).to.be.at.least(body.timing.retrieve);
  });

  it('streams delta events then one done event with the same metadata when Accept is text/event-stream', async () => {
    const { status, headers, events } = await chatStream(t.server.url, alice, {
      query: 'How are hotel costs refunded?',
    });
    expect(status).to.equal(200);
    expect(headers.get('content-type')).to.match(/^text\/event-stream/);
    const deltas = events.filter((event) => event.type === 'delta');
    const done = events.filter((event) => event.type === 'done');
    expect(deltas.length).to.be.greaterThan(1);
    expect(done).to.have.lengthOf(1);
    expect(events.at(-1)?.type).to.equal('done');
    const answer = deltas.map((event) => event.data.text as string).join('');
    expect(answer).to.include('Hotel costs are refunded up to 150 euros a night.');
    const payload = done[0]!.data;
    expect(payload).to.have.all.keys(
      'sources',
      'token_budget',
      'retrieval_settings',
      'timing',
      'conversation_id',
      'usage',
    );
    expect(payload.sources[0]).to.include({ document_id: ids['travel.txt'], index: 1 });
    // History is saved once the stream completes: the stored answer is what was streamed.
    const stored = await t.call('GET', `/api/conversations/${payload.conversation_id}`, alice);
    expect(stored.body.turns.map((turn: Json) => turn.answer)).to.deep.equal([answer]);
  });

  it('writes the deltas that are ready together in one write, not one write per word', async () => {
    const chunks = await rawChunkedBody(`${t.server.url}/api/chat`, alice, { query: 'How are hotel costs refunded?' });
    const body = chunks.join('');
    const deltas = body.match(/^event: delta$/gm) ?? [];
    expect(deltas.length).to.be.greaterThan(5);
    expect(body).to.match(/event: done\ndata: \{.*\}\n\n$/);
    // Each write is a chunk of the chunked encoding: the extractive answer's deltas come at once,
    // then `done` after the turn is saved.
    expect(chunks.length, `${chunks.length} chunks for ${deltas.length} deltas`).to.be.at.most(3);
  });

  it('search and chat filter by source as the documents list does (#29 item 11)', async () => {
    const uploads = { query: 'invoices archived', filters: { source_type: 'upload' } };
    const searched = await t.call('POST', '/api/search', alice, uploads);
    expect(searched.status).to.equal(200);
    expect(searched.body.items.map((item: Json) => item.document_id)).to.include(ids['invoices.txt']);
    const fromIntegration = { query: 'invoices archived', filters: { source_type: 'integration' } };
    expect((await t.call('POST', '/api/search', alice, fromIntegration)).body.items).to.deep.equal([]);
    const oneSource = { query: 'invoices archived', filters: { source_id: crypto.randomUUID() } };
    expect((await t.call('POST', '/api/search', alice, oneSource)).body.items).to.deep.equal([]);
    const chatted = await t.call('POST', '/api/chat', alice, uploads);
    expect(chatted.status).to.equal(200);
    expect(chatted.body.sources[0]).to.include({ document_id: ids['invoices.txt'] });
    expect(chatted.body.retrieval_settings.filters).to.deep.equal({ source_type: 'upload' });
    expect((await t.call('POST', '/api/chat', alice, fromIntegration)).body.sources).to.deep.equal([]);
    const bogus = { query: 'invoices', filters: { source_type: 'dropbox' } };
    expect((await t.call('POST', '/api/search', alice, bogus)).status).to.equal(422);
    expect((await t.call('POST', '/api/chat', alice, bogus)).status).to.equal(422);
  });

  it('answers 422 for an empty, blank, over-long, non-string or missing query', async () => {
    for (const body of [
      { query: '' },
      { query: '   \n ' },
      { query: 'x'.repeat(8001) },
      { query: 42 },
      { query: ['a'] },
      {},
      { query: 'ok', top_k: 0 },
      { query: 'ok', conversation_id: 'not-a-uuid' },
    ]) {
      const res = await t.call('POST', '/api/chat', alice, body);
      expect([res.status, res.body.code], JSON.stringify(body).slice(0, 60)).to.deep.equal([422, 'validation_failed']);
    }
    expect((await t.call('POST', '/api/chat', alice, { query: 'x'.repeat(8000) })).status).to.equal(200);
    const streamed = await chatStream(t.server.url, alice, { query: '' });
    expect(streamed.status).to.equal(422);
    // A filter past its limits is refused before any stream starts, as search refuses it.
    const manyKeys = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`key${i}`, 'value']));
    const tooMany = await chatStream(t.server.url, alice, { query: 'invoices', filters: { metadata: manyKeys } });
    expect([tooMany.status, tooMany.json?.setting]).to.deep.equal([422, 'FILTER_MAX_KEYS']);
    expect((await t.call('POST', '/api/chat', null, { query: 'invoices' })).status).to.equal(401);
  });

  it("a conversation_id the client chose starts that conversation (JSON and SSE); another user's is never taken over", async () => {
    const chosen = crypto.randomUUID();
    const first = await t.call('POST', '/api/chat', alice, { query: 'invoices', conversation_id: chosen });
    expect([first.status, first.body.conversation_id]).to.deep.equal([200, chosen]);
    const streamedId = crypto.randomUUID();
    const streamed = await chatStream(t.server.url, alice, { query: 'hotel', conversation_id: streamedId });
    expect(streamed.events.find((event) => event.type === 'done')?.data.conversation_id).to.equal(streamedId);
    const listed = (await t.call('GET', '/api/conversations?limit=100', alice)).body.items.map((item: Json) => item.id);
    expect(listed).to.include.members([chosen, streamedId]);
    expect((await t.call('GET', `/api/conversations/${chosen}`, alice)).body.turns).to.have.length(1);
    // Bob may not write into Alice's conversation, nor learn that it exists.
    const taken = await t.call('POST', '/api/chat', bob, { query: 'invoices', conversation_id: chosen });
    expect([taken.status, taken.body.code]).to.deep.equal([404, 'not_found']);
    expect((await chatStream(t.server.url, bob, { query: 'invoices', conversation_id: chosen })).status).to.equal(404);
    expect((await t.call('GET', `/api/conversations/${chosen}`, alice)).body.turns).to.have.length(1);
  });

  it("keeps conversations per user: follow-ups append turns, others see 404, lists show only one's own", async () => {
    const first = await t.call('POST', '/api/chat', alice, { query: 'How long are receipts kept?' });
    const conversationId = first.body.conversation_id as string;
    const second = await t.call('POST', '/api/chat', alice, {
      query: 'And invoices?',
      conversation_id: conversationId,
    });
    expect(second.body.conversation_id).to.equal(conversationId);
    const stored = await t.call('GET', `/api/conversations/${conversationId}`, alice);
    expect(stored.status).to.equal(200);
    expect(stored.body.title).to.equal('How long are receipts kept?');
    expect(stored.body.turns.map((turn: Json) => turn.query)).to.deep.equal([
      'How long are receipts kept?',
      'And invoices?',
    ]);
    expect(stored.body.turns[0].sources[0]).to.include({ index: 1 }).and.not.have.property('text');

    expect((await t.call('GET', `/api/conversations/${conversationId}`, bob)).status).to.equal(404);
    expect(
      (await t.call('POST', '/api/chat', bob, { query: 'invoices', conversation_id: conversationId })).status,
    ).to.equal(404);
    expect((await t.call('DELETE', `/api/conversations/${conversationId}`, bob)).status).to.equal(404);
    const bobs = await t.call('GET', '/api/conversations', bob);
    expect(bobs.body.items.map((item: Json) => item.id)).to.not.include(conversationId);
    const alices = await t.call('GET', '/api/conversations?limit=1', alice);
    expect(alices.body).to.include({ limit: 1, offset: 0 });
    expect(alices.body.total).to.be.at.least(2);
    expect(alices.body.items).to.have.lengthOf(1);
    expect(alices.body.items[0]).to.include({ id: conversationId, turns: 2 });
  });

  it('keeps only RAG_CONVERSATION_MAX_TURNS turns, the newest', async () => {
    expect((await t.call('PATCH', '/api/admin/settings', t.admin, { RAG_CONVERSATION_MAX_TURNS: 2 })).status).to.equal(
      200,
    );
    try {
      let conversationId: string | null = null;
      for (const query of ['first about invoices', 'second about receipts', 'third about hotels']) {
        conversationId = (await t.call('POST', '/api/chat', alice, { query, conversation_id: conversationId })).body
          .conversation_id;
      }
      const stored = await t.call('GET', `/api/conversations/${conversationId}`, alice);
      expect(stored.body.turns.map((turn: Json) => turn.query)).to.deep.equal([
        'second about receipts',
        'third about hotels',
      ]);
    } finally {
      await t.call('PATCH', '/api/admin/settings', t.admin, { RAG_CONVERSATION_MAX_TURNS: 100 });
    }
  });

  it('rewrites a follow-up from the previous question when RAG_QUERY_REWRITE_ENABLED (no model: the previous question leads)', async () => {
    const first = await t.call('POST', '/api/chat', alice, { query: 'Where are invoices archived?' });
    expect(first.body.retrieval_settings.rewritten_query).to.equal(null);
    expect(
      (await t.call('PATCH', '/api/admin/settings', t.admin, { RAG_QUERY_REWRITE_ENABLED: true })).status,
    ).to.equal(200);
    try {
      const followUp = await t.call('POST', '/api/chat', alice, {
        query: 'for how long?',
        conversation_id: first.body.conversation_id,
      });
      expect(followUp.body.retrieval_settings.rewritten_query).to.equal('Where are invoices archived? for how long?');
      expect(followUp.body.sources[0].document_id).to.equal(ids['invoices.txt']);
      const stored = await t.call('GET', `/api/conversations/${first.body.conversation_id}`, alice);
      expect(stored.body.turns[1].rewritten_query).to.equal('Where are invoices archived? for how long?');
    } finally {
      await t.call('PATCH', '/api/admin/settings', t.admin, { RAG_QUERY_REWRITE_ENABLED: false });
    }
  });

  it("never grounds an answer in a chunk outside the caller's groups", async () => {
    const query = { query: 'When does the Zephyr merger close?' };
    const forAlice = await t.call('POST', '/api/chat', alice, query);
    expect(forAlice.body.sources.map((source: Json) => source.document_id)).to.include(ids['merger.txt']);
    expect(forAlice.body.answer).to.include('March');
    const forBob = await t.call('POST', '/api/chat', bob, query);
    expect(forBob.body.sources.map((source: Json) => source.document_id)).to.not.include(ids['merger.txt']);
    expect(forBob.body.answer).to.not.include('March');
    const streamed = await chatStream(t.server.url, bob, query);
    expect(JSON.stringify(streamed.events)).to.not.include('Zephyr Corporation');
    const narrowed = await t.call('POST', '/api/chat', bob, {
      ...query,
      filters: { document_ids: [ids['merger.txt']] },
    });
    expect([narrowed.body.sources, narrowed.body.answer]).to.deep.equal([[], noPassagesAnswer]);
  });

  it('says no document answers, with the closest sources, when passages share only a word with the question', async () => {
    // Retrieval finds the two policies through "policy"; neither says anything about quantum reactors.
    const res = await t.call('POST', '/api/chat', alice, { query: 'What is the policy on quantum reactors?' });
    expect(res.status).to.equal(200);
    expect(res.body.sources.length).to.be.greaterThan(0);
    expect(res.body.answer).to.match(/^No indexed document answers this question\. The closest sources: .+ \[1\]/);
    expect(res.body.answer).to.not.include('Travel policy.').and.not.include('Invoice retention policy.');
  });

  it('says when nothing answers, without calling a model', async () => {
    const res = await t.call('POST', '/api/chat', alice, { query: 'quantum chromodynamics lattice' });
    expect(res.status).to.equal(200);
    expect(res.body.answer).to.equal(noPassagesAnswer);
    expect(res.body.sources).to.deep.equal([]);
  });

  it('reports the extractive backend in model-info, and the machine in hardware', async () => {
    const info = await t.call('GET', '/api/model-info', bob);
    expect(info.status).to.equal(200);
    expect(info.body).to.include({
      backend: 'extractive',
      configured_backend: 'local',
      generative: false,
      n_ctx: 8192,
      effective_n_ctx: 8192,
      embedding: null,
    });
    expect(info.body.note).to.include('LLM_MODEL_PATH');
    const hardware = await t.call('GET', '/api/hardware', bob);
    expect(hardware.status).to.equal(200);
    expect(hardware.body.cpu.cores).to.be.greaterThan(0);
    expect(hardware.body.memory.total_bytes).to.be.greaterThan(hardware.body.memory.process_rss_bytes);
    expect(hardware.body.gpus).to.be.an('array');
  });
});

describe('chat: metadata classification and token budget (extractive backend, PRO, N_CTX=400)', function () {
  this.timeout(120_000);
  let t: SearchTestServer;
  let feedDir: string;

  before(async () => {
    t = await startSearchServer({
      plan: 'PRO',
      embedder: false,
      env: { N_CTX: '400' },
      plugins: [{ plugin: connectorTemplate }],
    });
    feedDir = fs.mkdtempSync(path.join(t.server.kernel.config.dataDir, 'feed-'));
    const feed = path.join(feedDir, 'contracts.jsonl');
    const contract = (id: string, text: string) =>
      JSON.stringify({
        id,
        title: `Contract ${id}`,
        body: `Contract ${id}\n\n${text}`,
        updated_at: '2026-01-01T00:00:00Z',
      });
    fs.writeFileSync(
      feed,
      [
        contract('A-1', 'The notice period is three months for either party.'),
        contract('B-2', 'The notice period is one month, in writing.'),
      ].join('\n'),
    );
    const source = (
      await t.call('POST', '/api/integrations', t.admin, {
        name: 'Contracts',
        type: 'json-feed',
        config: { path: feed },
      })
    ).body.id as string;
    const rule = {
      field_name: 'contract',
      pattern: 'Contract ([A-Z]-\\d)',
      query_pattern: '(?i)contract\\s+([A-Z]-\\d)',
      scope: 'header',
      level: 'document',
    };
    expect((await t.call('POST', `/api/metadata/${source}/rules`, t.admin, rule)).status).to.equal(201);
    const job = (await t.call('POST', `/api/integrations/${source}/sync`, t.admin)).body.job_id as string;
    for (
      let i = 0;
      i < 300 && !['succeeded', 'failed'].includes((await t.call('GET', `/api/jobs/${job}`, t.admin)).body.status);
      i++
    )
      await new Promise((resolve) => setTimeout(resolve, 100));
    await t.uploadTexts(
      Object.fromEntries(
        Array.from({ length: 8 }, (_, i) => [
          `notice-${i}.txt`,
          `Notice periods memo ${i}. ${'The notice period of the staff handbook is described at length here. '.repeat(6)}`,
        ]),
      ),
    );
    // The sync only queues the contracts for indexing: wait until both are indexed too.
    const indexed = async () =>
      Number(
        (
          await t.server.kernel.db.query<{ count: string }>(
            `select count(*) from document where status = 'indexed' and source_id = $1`,
            [source],
          )
        ).rows[0]?.count,
      );
    for (let i = 0; i < 600 && (await indexed()) < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  });
  after(() => t?.stop());

  it("turns a query into metadata filters through the rules' query_pattern, and reports them", async () => {
    const res = await t.call('POST', '/api/chat', t.admin, { query: 'What is the notice period of contract b-2?' });
    expect(res.status).to.equal(200);
    expect(res.body.retrieval_settings.classification.filters).to.deep.equal({ contract: 'b-2' });
    // The stored value is "B-2": a filter no chunk has leaves nothing, so retrieval ran again without it.
    expect(res.body.retrieval_settings.filters).to.deep.equal({});
    const exact = await t.call('POST', '/api/chat', t.admin, { query: 'What is the notice period of Contract B-2?' });
    expect(exact.body.retrieval_settings.filters).to.deep.equal({ metadata: { contract: 'B-2' } });
    expect(exact.body.sources.map((source: Json) => source.title)).to.deep.equal(['Contract B-2']);
    expect(exact.body.answer).to.include('one month');
  });

  it('settles an ambiguous query by rule priority without a model, and says so', async () => {
    const res = await t.call('POST', '/api/chat', t.admin, {
      query: 'Compare the notice period of Contract A-1 and Contract B-2',
    });
    expect(res.body.retrieval_settings.classification.ambiguous).to.deep.equal({
      contract: { candidates: ['A-1', 'B-2'], chosen: 'A-1', by: 'priority' },
    });
    expect(res.body.retrieval_settings.filters).to.deep.equal({ metadata: { contract: 'A-1' } });
  });

  it('drops the lowest-relevance chunks to fit EFFECTIVE_N_CTX and reports chunks_dropped', async () => {
    const res = await t.call('POST', '/api/chat', t.admin, { query: 'notice period staff handbook memo', top_k: 8 });
    expect(res.status).to.equal(200);
    const budget = res.body.token_budget;
    expect(budget).to.not.equal(null);
    expect(budget).to.include({ limit: 400, reserved_completion: 100, history_turns_dropped: 0 });
    expect(budget.estimated_prompt).to.be.at.most(300);
    expect(budget.chunks_dropped).to.be.greaterThan(0);
    expect(res.body.sources.length + budget.chunks_dropped).to.equal(8);
    // What stayed is the best-ranked: every kept score is at least every dropped one's, so the kept are a prefix.
    const search = await t.call('POST', '/api/search', t.admin, {
      query: 'notice period staff handbook memo',
      top_k: 8,
    });
    expect(res.body.sources.map((source: Json) => source.chunk_id)).to.deep.equal(
      search.body.items.slice(0, res.body.sources.length).map((item: Json) => item.chunk_id),
    );
  });

  it('refuses a question too long for the context window with 422', async () => {
    const res = await t.call('POST', '/api/chat', t.admin, {
      query: Array.from({ length: 600 }, (_, i) => `word${i}`).join(' '),
    });
    expect([res.status, res.body.code]).to.deep.equal([422, 'validation_failed']);
    expect(res.body.detail).to.include('400');
  });
});
