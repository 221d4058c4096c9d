import { expect } from 'chai';
import { loadConfig } from '@docqa/kernel';
import { testSecrets } from '@docqa/kernel/testing';
import { llmOpenAiOptionsSchema } from '@docqa/plugin-llm-openai';
import { startChatCompletionsServer, type ChatCompletionsServer } from '@docqa/plugin-testkit';
import { startSearchServer, type SearchTestServer } from '../testing/search-server.test-support.js';
import { chatStream } from '../testing/sse.test-support.js';
import { chatBackend, inferenceServerApiKey, standardPreset } from './standard.js';

/** The chat backend the standard preset picks for these variables, after the kernel validated them. */
function chosenFor(env: Record<string, string>) {
  const { values } = loadConfig({ ...testSecrets, DOCQA_SECRETS_DIR: '/nonexistent-secrets', ...env }, { cwd: '/' });
  const entry = chatBackend((name) => values[name as keyof typeof values]);
  return { id: entry.plugin.id, options: (entry as { options?: Record<string, unknown> }).options };
}

describe('standard preset: email by EMAIL_PROVIDER (spec 8.2)', () => {
  /** The email plugins the preset loads for these variables, after the kernel validated them. */
  const emailFor = (env: Record<string, string>) => {
    const { values } = loadConfig({ ...testSecrets, DOCQA_SECRETS_DIR: '/nonexistent-secrets', ...env }, { cwd: '/' });
    return standardPreset
      .plugins({ variable: (name) => values[name as keyof typeof values] })
      .map((entry) => ({
        id: typeof entry.plugin === 'string' ? entry.plugin : entry.plugin.id,
        options: (entry as { options?: Record<string, unknown> }).options,
      }))
      .filter((entry) => entry.id.startsWith('email-'));
  };

  it('logs emails by default, and sends them through SMTP_* with EMAIL_PROVIDER=smtp', () => {
    expect(emailFor({}).map((entry) => entry.id)).to.deep.equal(['email-console']);
    const smtp = emailFor({
      EMAIL_PROVIDER: 'smtp',
      SMTP_HOST: 'mail.example.com',
      SMTP_PORT: '587',
      SMTP_FROM: 'docqa@example.com',
      SMTP_USERNAME: 'mailer',
      SMTP_PASSWORD: 'mail-password',
      SMTP_STARTTLS: 'true',
    });
    expect(smtp.map((entry) => entry.id)).to.deep.equal(['email-smtp']);
    expect(smtp[0]?.options).to.include({
      host: 'mail.example.com',
      port: 587,
      from: 'docqa@example.com',
      username: 'mailer',
      password: 'mail-password',
      startTls: true,
    });
  });
});

describe('standard preset: the chat backend from LLM_BACKEND, LLM_MODEL_PATH and INFERENCE_URL', () => {
  it('answers extractively on a fresh install: INFERENCE_URL has no default', () => {
    expect(chosenFor({}).id).to.equal('llm-extractive');
    expect(chosenFor({ LLM_BACKEND: 'local', INFERENCE_URL: '' }).id).to.equal('llm-extractive');
  });

  it('LLM_BACKEND=local with INFERENCE_URL talks to the inference server through its OpenAI-compatible API', () => {
    const chosen = chosenFor({
      LLM_BACKEND: 'local',
      INFERENCE_URL: 'http://inference:8080/',
      INFERENCE_TIMEOUT_SECONDS: '45',
      N_CTX: '4096',
    });
    expect(chosen.id).to.equal('llm-openai');
    // The context is what the server reports (GET /props), not N_CTX: N_CTX may ask for more than it has.
    expect(chosen.options).to.include({
      baseUrl: 'http://inference:8080/v1',
      apiKey: inferenceServerApiKey,
      timeoutSeconds: 45,
      backend: 'local',
      discoverContext: true,
    });
    expect(chosen.options).to.not.have.property('contextLength');
    // What the plugin will validate at start-up accepts it.
    expect(llmOpenAiOptionsSchema.safeParse(chosen.options).success).to.equal(true);
  });

  it('an in-process model (LLM_MODEL_PATH) wins over INFERENCE_URL, and LLM_BACKEND=hosted over both', () => {
    expect(
      chosenFor({ LLM_BACKEND: 'local', INFERENCE_URL: 'http://inference:8080', LLM_MODEL_PATH: '/models/chat.gguf' })
        .id,
    ).to.equal('llm-llamacpp');
    const hosted = chosenFor({
      LLM_BACKEND: 'hosted',
      INFERENCE_URL: 'http://inference:8080',
      HOSTED_API_KEY: 'sk-hosted',
      HOSTED_MODEL: 'gpt-test',
      HOSTED_BASE_URL: 'https://api.example/v1',
    });
    expect(hosted.id).to.equal('llm-openai');
    expect(hosted.options).to.include({ baseUrl: 'https://api.example/v1', apiKey: 'sk-hosted', model: 'gpt-test' });
  });
});

describe('chat through an inference server at INFERENCE_URL (LLM_BACKEND=local, loopback llama.cpp stand-in)', function () {
  this.timeout(120_000);
  let inference: ChatCompletionsServer;
  let t: SearchTestServer;

  before(async () => {
    // The stand-in accepts only the key DocQA sends a keyless llama.cpp server, so a request that
    // went elsewhere or with another key fails the test instead of passing by accident.
    inference = await startChatCompletionsServer({
      apiKey: inferenceServerApiKey,
      reply: 'Invoices stay ten years in the vault [1].',
    });
    t = await startSearchServer({
      plan: 'FREE',
      embedder: false,
      env: { LLM_BACKEND: 'local', INFERENCE_URL: inference.origin, INFERENCE_TIMEOUT_SECONDS: '10' },
    });
    await t.uploadTexts({
      'invoices.txt': 'Invoice retention policy.\n\nInvoices are archived for ten years in the finance vault.',
    });
  });
  after(async () => {
    await t?.stop();
    await inference?.close();
  });

  it('streams the answer the inference server generates, and model-info names it', async () => {
    const streamed = await chatStream(t.server.url, t.admin, { query: 'How long are invoices archived?' });
    expect(streamed.status).to.equal(200);
    const text = streamed.events
      .filter((event) => event.type === 'delta')
      .map((event) => event.data.text)
      .join('');
    expect(text).to.equal('Invoices stay ten years in the vault [1].');
    expect(streamed.events.at(-1)?.type).to.equal('done');
    expect(inference.requests.map((request) => request.path)).to.include('/v1/chat/completions');

    const info = await t.call('GET', '/api/model-info', t.admin);
    expect(info.status).to.equal(200);
    expect(info.body).to.include({
      backend: 'local',
      configured_backend: 'local',
      generative: true,
      endpoint: `${inference.origin}/v1`,
    });
  });
});

describe('standard preset: the reranker by RAG_RERANK_ENABLED and RAG_RERANK_MODEL (#27)', () => {
  const rerankerFor = (env: Record<string, string>) => {
    const { values } = loadConfig(
      { ...testSecrets, DOCQA_SECRETS_DIR: '/nonexistent-secrets', MODELS_DIR: '/srv/models', ...env },
      { cwd: '/' },
    );
    return standardPreset
      .plugins({ variable: (name) => values[name as keyof typeof values] })
      .filter((entry) => typeof entry.plugin !== 'string' && entry.plugin.kind === 'reranker')
      .map((entry) => (entry as { options?: Record<string, unknown> }).options);
  };

  it('loads no reranker by default', () => {
    expect(rerankerFor({})).to.deep.equal([]);
    expect(rerankerFor({ RAG_RERANK_MODEL: 'bge-reranker-v2-m3' })).to.deep.equal([]);
  });

  it("loads reranker-llamacpp on a catalogue entry's file, or a .gguf file, in MODELS_DIR", () => {
    const [byName] = rerankerFor({ RAG_RERANK_ENABLED: 'true', RAG_RERANK_MODEL: 'bge-reranker-v2-m3' });
    expect(byName).to.include({
      modelPath: '/srv/models/bge-reranker-v2-m3-Q8_0.gguf',
      modelName: 'bge-reranker-v2-m3',
    });
    const [byFile] = rerankerFor({ RAG_RERANK_ENABLED: 'true', RAG_RERANK_MODEL: 'my-reranker.gguf' });
    expect(byFile).to.include({ modelPath: '/srv/models/my-reranker.gguf', modelName: 'my-reranker' });
  });

  it('refuses a missing model, a path out of MODELS_DIR, and a catalogue model of another purpose', () => {
    expect(() => rerankerFor({ RAG_RERANK_ENABLED: 'true' })).to.throw('RAG_RERANK_MODEL is required');
    expect(() => rerankerFor({ RAG_RERANK_ENABLED: 'true', RAG_RERANK_MODEL: '../x.gguf' })).to.throw('MODELS_DIR');
    expect(() => rerankerFor({ RAG_RERANK_ENABLED: 'true', RAG_RERANK_MODEL: '/tmp/x.gguf' })).to.throw('MODELS_DIR');
    expect(() => rerankerFor({ RAG_RERANK_ENABLED: 'true', RAG_RERANK_MODEL: 'bge-small-en-v1.5' })).to.throw(
      'is an embedding model, not a reranking',
    );
    expect(() => rerankerFor({ RAG_RERANK_CANDIDATES: '0' })).to.throw('RAG_RERANK_CANDIDATES');
    expect(() => rerankerFor({ RAG_RERANK_CANDIDATES: '201' })).to.throw('RAG_RERANK_CANDIDATES');
  });
});
