import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import connectorTemplate from '@docqa/example-connector-template';
import { startChatCompletionsServer, type ChatCompletionsServer } from '@docqa/plugin-testkit';
import { startSearchServer, type Json, type SearchTestServer } from '../testing/search-server.test-support.js';
import { chatStream } from '../testing/sse.test-support.js';
import { systemPrompt } from '@docqa/core/chat';

const apiKey = 'sk-hosted-chat-test-key';

/** Turns saved to any conversation, straight from the table: what a stopped answer must not add. */
async function turnCount(t: SearchTestServer): Promise<number> {
  const { rows } = await t.server.kernel.db.query<{ count: string }>('select count(*) from conversation_turn');
  return Number(rows[0]?.count ?? 0);
}

describe('chat through a hosted OpenAI-compatible API (LLM_BACKEND=hosted, loopback server)', function () {
  this.timeout(120_000);
  let llm: ChatCompletionsServer;
  let t: SearchTestServer;

  before(async () => {
    llm = await startChatCompletionsServer({ apiKey });
    t = await startSearchServer({
      plan: 'PRO',
      embedder: false,
      env: {
        LLM_BACKEND: 'hosted',
        HOSTED_API_KEY: apiKey,
        HOSTED_MODEL: 'docqa-test-chat',
        HOSTED_BASE_URL: llm.baseUrl,
        INFERENCE_TIMEOUT_SECONDS: '10',
        RAG_CLASSIFIER_LLM_ENABLED: 'true',
        RAG_CLASSIFIER_LLM_MAX_TOKENS: '7',
      },
      plugins: [{ plugin: connectorTemplate }],
    });
    await t.uploadTexts({
      'invoices.txt': 'Invoice retention policy.\n\nInvoices are archived for ten years in the finance vault.',
      'travel.txt': 'Travel policy.\n\nHotel costs are refunded up to 150 euros a night.',
    });
  });
  beforeEach(() => {
    llm.reply = null;
    llm.firstTokenDelayMs = 0;
    llm.tokenDelayMs = 0;
  });
  after(async () => {
    await t?.stop();
    await llm?.close();
  });

  it("sends the system prompt, the numbered passages and the question, and answers with the model's cited text", async () => {
    const before = llm.requests.length;
    const res = await t.call('POST', '/api/chat', t.admin, { query: 'How long are invoices archived?' });
    expect(res.status).to.equal(200);
    expect(res.body.answer).to.match(/^According to \[1\], /);
    expect(res.body.sources[0]).to.include({ index: 1, title: 'invoices.txt' });
    const [request] = llm.requests.slice(before);
    expect(request?.path).to.equal('/v1/chat/completions');
    expect(request?.headers.authorization).to.equal(`Bearer ${apiKey}`);
    const messages = request?.body?.messages as Json[];
    expect(messages[0]).to.deep.equal({ role: 'system', content: systemPrompt });
    expect(messages.at(-1)?.content)
      .to.include('[1] invoices.txt (invoices.txt)\nInvoice retention policy.')
      .and.include('Question: How long are invoices archived?');
    expect(request?.body?.stream).to.equal(true);
  });

  it("streams the model's pieces as delta events as they arrive, then done", async () => {
    llm.reply = 'Invoices are kept ten years [1].';
    llm.tokenDelayMs = 40;
    const { events } = await chatStream(t.server.url, t.admin, { query: 'invoices archived' });
    const deltas = events.filter((event) => event.type === 'delta');
    expect(deltas.map((event) => event.data.text).join('')).to.equal('Invoices are kept ten years [1].');
    expect(deltas).to.have.lengthOf(6);
    // Pieces arrive spread over the answer's time (5 gaps of 40 ms), not all at once at the end.
    expect(deltas.at(-1)!.at - deltas[0]!.at).to.be.greaterThan(80);
    expect(events.at(-1)?.type).to.equal('done');
  });

  it('sends an error event and closes the stream when the model fails mid-answer; nothing is saved', async () => {
    llm.reply = 'one two three four five six seven eight';
    llm.failMidStream(3);
    const turns = await turnCount(t);
    const { status, events } = await chatStream(t.server.url, t.admin, { query: 'invoices archived' });
    expect(status).to.equal(200);
    expect(events.filter((event) => event.type === 'delta').length).to.be.within(1, 3);
    const last = events.at(-1);
    expect(last?.type).to.equal('error');
    expect(Object.keys(last!.data)).to.deep.equal(['detail']);
    expect(last!.data.detail).to.be.a('string').and.not.include(apiKey);
    expect(events.some((event) => event.type === 'done')).to.equal(false);
    expect(await turnCount(t)).to.equal(turns);
  });

  it('answers 503 in JSON mode when the model is down', async () => {
    llm.failNext(503, 5);
    const res = await t.call('POST', '/api/chat', t.admin, { query: 'invoices archived' });
    expect([res.status, res.body.code]).to.deep.equal([503, 'unavailable']);
    expect(JSON.stringify(res.body)).to.not.include(apiKey);
  });

  it('OpenAI-compatible: a model failing mid-stream ends it with an error event, no [DONE]; down, 503', async () => {
    const ask = (stream: boolean) =>
      fetch(`${t.server.url}/api/openai/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'docqa', stream, messages: [{ role: 'user', content: 'invoices archived' }] }),
      });
    llm.reply = 'one two three four five six seven eight';
    llm.failMidStream(3);
    const streamed = await (await ask(true)).text();
    const data = streamed.split('\n\n').filter((event) => event.startsWith('data: '));
    const events = data.map((event) => event.slice('data: '.length));
    expect(events).to.not.include('[DONE]');
    const last = JSON.parse(events.at(-1)!) as Json;
    expect(Object.keys(last)).to.deep.equal(['error']);
    expect(last.error).to.have.all.keys('message', 'type', 'param', 'code');
    expect(streamed).to.not.include(apiKey);
    llm.failNext(503, 5);
    const down = await ask(false);
    const body = (await down.json()) as Json;
    expect([down.status, body.error?.type, body.error?.code]).to.deep.equal([503, 'server_error', 'unavailable']);
    expect(JSON.stringify(body)).to.not.include(apiKey);
  });

  it('stops generating when the client disconnects, and saves nothing', async () => {
    llm.reply = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    llm.tokenDelayMs = 20;
    const turns = await turnCount(t);
    const disconnectsBefore = llm.disconnects;
    const { events } = await chatStream(t.server.url, t.admin, { query: 'hotel costs' }, { abortAfterDeltas: 3 });
    expect(events.filter((event) => event.type === 'delta')).to.have.lengthOf(3);
    // The server's request to the model is closed: the model sees its client go away mid-answer.
    await llm.waitForDisconnects(disconnectsBefore + 1, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(llm.activeGenerations).to.equal(0);
    expect(await turnCount(t)).to.equal(turns);
  });

  it('rewrites a follow-up with the model when RAG_QUERY_REWRITE_ENABLED', async () => {
    const first = await t.call('POST', '/api/chat', t.admin, { query: 'Where are invoices archived?' });
    expect(
      (await t.call('PATCH', '/api/admin/settings', t.admin, { RAG_QUERY_REWRITE_ENABLED: true })).status,
    ).to.equal(200);
    try {
      const before = llm.requests.length;
      llm.reply = 'For how long are invoices archived in the finance vault?';
      const followUp = await t.call('POST', '/api/chat', t.admin, {
        query: 'for how long?',
        conversation_id: first.body.conversation_id,
      });
      expect(followUp.body.retrieval_settings.rewritten_query).to.equal(
        'For how long are invoices archived in the finance vault?',
      );
      const [rewrite, answer] = llm.requests.slice(before);
      expect((rewrite?.body?.messages as Json[]).at(-1)?.content)
        .to.include('User: Where are invoices archived?')
        .and.include('Last question: for how long?');
      // The answer prompt carries the earlier turn as history, then the question as asked.
      const answerMessages = answer?.body?.messages as Json[];
      expect(answerMessages.map((message) => message.role)).to.deep.equal(['system', 'user', 'assistant', 'user']);
      expect(answerMessages.at(-1)?.content).to.include('Question: for how long?');
    } finally {
      await t.call('PATCH', '/api/admin/settings', t.admin, { RAG_QUERY_REWRITE_ENABLED: false });
    }
  });

  it('gives the rewrite only the last RAG_QUERY_REWRITE_MAX_TURNS turns', async () => {
    const first = await t.call('POST', '/api/chat', t.admin, { query: 'Where are invoices archived?' });
    const conversation_id = first.body.conversation_id as string;
    await t.call('POST', '/api/chat', t.admin, { query: 'And the receipts?', conversation_id });
    const rewriting = { RAG_QUERY_REWRITE_ENABLED: true, RAG_QUERY_REWRITE_MAX_TURNS: 1 };
    expect((await t.call('PATCH', '/api/admin/settings', t.admin, rewriting)).status).to.equal(200);
    try {
      const before = llm.requests.length;
      await t.call('POST', '/api/chat', t.admin, { query: 'for how long?', conversation_id });
      const rewritePrompt = (llm.requests[before]?.body?.messages as Json[]).at(-1)?.content;
      expect(rewritePrompt).to.include('User: And the receipts?').and.include('Last question: for how long?');
      expect(rewritePrompt).to.not.include('Where are invoices archived?');
    } finally {
      const defaults = { RAG_QUERY_REWRITE_ENABLED: false, RAG_QUERY_REWRITE_MAX_TURNS: 3 };
      await t.call('PATCH', '/api/admin/settings', t.admin, defaults);
    }
  });

  it('the OpenAI-compatible API rewrites a follow-up from the messages the client sends', async () => {
    const rewriting = await t.call('PATCH', '/api/admin/settings', t.admin, { RAG_QUERY_REWRITE_ENABLED: true });
    expect(rewriting.status).to.equal(200);
    try {
      const before = llm.requests.length;
      llm.reply = 'For how long are invoices archived in the finance vault?';
      const messages = [
        { role: 'user', content: 'Where are invoices archived?' },
        { role: 'assistant', content: 'In the finance vault [1].' },
        { role: 'user', content: 'for how long?' },
      ];
      const answer = await t.call('POST', '/api/openai/v1/chat/completions', t.admin, { model: 'docqa', messages });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      const [rewrite, generation] = llm.requests.slice(before);
      const rewritePrompt = (rewrite?.body?.messages as Json[]).at(-1)?.content;
      expect(rewritePrompt).to.include('User: Where are invoices archived?');
      expect(rewritePrompt).to.include('Last question: for how long?');
      const answerMessages = generation?.body?.messages as Json[];
      expect(answerMessages.map((message) => message.role)).to.deep.equal(['system', 'user', 'assistant', 'user']);
      expect(answerMessages[2]?.content).to.equal('In the finance vault [1].');
    } finally {
      await t.call('PATCH', '/api/admin/settings', t.admin, { RAG_QUERY_REWRITE_ENABLED: false });
    }
  });

  it('asks the model to settle an ambiguous classification (RAG_CLASSIFIER_LLM_ENABLED), within RAG_CLASSIFIER_LLM_MAX_TOKENS', async () => {
    const feed = path.join(fs.mkdtempSync(path.join(t.server.kernel.config.dataDir, 'feed-')), 'contracts.jsonl');
    const contract = (id: string, text: string) =>
      JSON.stringify({
        id,
        title: `Contract ${id}`,
        body: `Contract ${id}\n\n${text}`,
        updated_at: '2026-01-01T00:00:00Z',
      });
    fs.writeFileSync(
      feed,
      [contract('A-1', 'The notice period is three months.'), contract('B-2', 'The notice period is one month.')].join(
        '\n',
      ),
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
      query_pattern: 'Contract ([A-Z]-\\d)',
      scope: 'header',
      level: 'document',
    };
    expect((await t.call('POST', `/api/metadata/${source}/rules`, t.admin, rule)).status).to.equal(201);
    const job = (await t.call('POST', `/api/integrations/${source}/sync`, t.admin)).body.job_id as string;
    for (let i = 0; i < 300 && (await t.call('GET', `/api/jobs/${job}`, t.admin)).body.status !== 'succeeded'; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
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

    const query = { query: 'Is the notice period of Contract A-1 longer than Contract B-2?' };
    llm.reply = 'B-2';
    const before = llm.requests.length;
    const chosen = await t.call('POST', '/api/chat', t.admin, query);
    expect(chosen.body.retrieval_settings.classification.ambiguous).to.deep.equal({
      contract: { candidates: ['A-1', 'B-2'], chosen: 'B-2', by: 'llm' },
    });
    expect(chosen.body.retrieval_settings.filters).to.deep.equal({ metadata: { contract: 'B-2' } });
    const classifierRequest = llm.requests[before]!;
    expect(classifierRequest.body?.max_completion_tokens ?? classifierRequest.body?.max_tokens).to.equal(7);
    expect((classifierRequest.body?.messages as Json[]).at(-1)?.content).to.include('- A-1\n- B-2');

    llm.reply = 'none';
    const undecided = await t.call('POST', '/api/chat', t.admin, query);
    expect(undecided.body.retrieval_settings.classification.ambiguous.contract).to.deep.equal({
      candidates: ['A-1', 'B-2'],
      chosen: null,
      by: 'llm',
    });
    expect(undecided.body.retrieval_settings.filters).to.deep.equal({});
  });

  it('reports the hosted model at once in model-info, without calling it', async () => {
    const before = llm.requests.length;
    const info = await t.call('GET', '/api/model-info', t.admin);
    expect(info.status).to.equal(200);
    expect(info.body).to.include({
      backend: 'hosted',
      configured_backend: 'hosted',
      model: 'docqa-test-chat',
      generative: true,
      exact_token_count: false,
      endpoint: llm.baseUrl,
    });
    // RAG_CLASSIFIER_LLM_ENABLED is on, and the hosted model is what it asks.
    expect(info.body.classifier_llm).to.deep.equal({ enabled: true, active: true });
    expect(JSON.stringify(info.body)).to.not.include(apiKey);
    expect(llm.requests.length).to.equal(before);
  });
});
