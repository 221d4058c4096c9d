import { expect } from 'chai';
import { startChatCompletionsServer, type ChatCompletionsServer } from '@docqa/plugin-testkit';
import { startSearchServer, type SearchTestServer } from '../testing/search-server.test-support.js';

const apiKey = 'sk-token-usage-test-key';

// RAG_LOG_TOKEN_USAGE is a seed, so it is switched here as operators switch it: a runtime setting.
describe('RAG_LOG_TOKEN_USAGE: a log line per chat with its token budget (spec 8.2)', function () {
  this.timeout(120_000);
  let llm: ChatCompletionsServer;
  let t: SearchTestServer;
  const logs: string[] = [];
  const usageLines = () =>
    logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line['msg'] === 'chat token usage');

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
        N_CTX: '4096',
        LOG_LEVEL: 'INFO',
      },
      server: { logDestination: { write: (line: string) => void logs.push(line) } },
    });
    await t.uploadTexts({ 'invoices.txt': 'Invoices are archived for ten years in the finance vault.' });
  });
  after(async () => {
    await t?.stop();
    await llm?.close();
  });

  it('logs nothing of the kind when off, and the budget with the context limit when on', async () => {
    expect((await t.call('POST', '/api/chat', t.admin, { query: 'Where are invoices archived?' })).status).to.equal(
      200,
    );
    expect(usageLines()).to.deep.equal([]);
    const on = await t.call('PATCH', '/api/admin/settings', t.admin, { RAG_LOG_TOKEN_USAGE: true });
    expect(on.status).to.equal(200);
    const chat = await t.call('POST', '/api/chat', t.admin, { query: 'Where are invoices archived?' });
    expect(chat.status).to.equal(200);
    const [line, ...more] = usageLines();
    expect(more).to.deep.equal([]);
    expect(line).to.include({ conversation: chat.body.conversation_id, limit: 4096 });
    expect(line?.['estimated_prompt']).to.be.a('number').and.above(0);
    expect(line?.['token_budget']).to.deep.equal(chat.body.token_budget);
  });
});
