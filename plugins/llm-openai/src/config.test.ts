import { expect } from 'chai';
import { startChatCompletionsServer, type ChatCompletionsServer } from '@docqa/plugin-testkit';
import llmOpenAiPlugin, { llmOpenAiOptionsFromVariables } from './index.js';
import { apiKey, closedPort, collect, model, optionsFor, requestOf, startBackend } from './backend.test-support.js';

const problems = (options: unknown): string[] => {
  const result = llmOpenAiPlugin.configSchema.safeParse(options);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
};

describe('llm-openai: options', () => {
  const azure = { endpoint: 'https://example.openai.azure.com/', deployment: 'chat-prod', apiVersion: '2024-10-21' };

  it('fills in defaults', () => {
    expect(llmOpenAiPlugin.configSchema.parse({ apiKey, model })).to.deep.equal({
      apiKey,
      model,
      timeoutSeconds: 120,
      maxRetries: 2,
      temperature: 0.2,
    });
  });

  it('refuses baseUrl with azure, a missing model without azure, a key in the URL and out-of-range numbers', () => {
    expect(problems({ baseUrl: 'https://api.example.com/v1', apiKey, model, azure })).to.deep.equal(['baseUrl']);
    expect(problems({ apiKey })).to.deep.equal(['model']);
    expect(problems({ apiKey, azure })).to.deep.equal([]);
    expect(problems({ apiKey: '', model })).to.deep.equal(['apiKey']);
    expect(problems({ apiKey, model, baseUrl: 'https://user:secret@api.example.com/v1' })).to.deep.equal(['baseUrl']);
    expect(problems({ apiKey, model, baseUrl: 'ftp://api.example.com/v1' })).to.deep.equal(['baseUrl']);
    expect(
      problems({ apiKey, model, timeoutSeconds: 0, maxRetries: -1, contextLength: 1.5, temperature: 3 }),
    ).to.deep.equal(['timeoutSeconds', 'maxRetries', 'contextLength', 'temperature']);
    expect(problems({ apiKey, model, azure: { ...azure, deployment: '' } })).to.deep.equal(['azure.deployment']);
    expect(problems({ apiKey, model, misspelt: true })).to.deep.equal(['']);
  });

  it("builds the options from DocQA's HOSTED_* variables", () => {
    const variables: Record<string, unknown> = {
      HOSTED_API_KEY: apiKey,
      HOSTED_MODEL: 'gpt-4o-mini',
      HOSTED_PROVIDER: 'openai',
      HOSTED_API_VERSION: '2024-10-21',
      INFERENCE_TIMEOUT_SECONDS: 90,
    };
    const openai = llmOpenAiOptionsFromVariables((name) => variables[name]);
    expect(openai).to.deep.equal({ apiKey, timeoutSeconds: 90, model: 'gpt-4o-mini' });
    expect(problems(openai)).to.deep.equal([]);

    variables.HOSTED_BASE_URL = 'http://127.0.0.1:8000/v1';
    expect(llmOpenAiOptionsFromVariables((name) => variables[name])).to.include({
      baseUrl: 'http://127.0.0.1:8000/v1',
    });

    Object.assign(variables, { HOSTED_PROVIDER: 'azure', HOSTED_BASE_URL: 'https://example.openai.azure.com/' });
    const azureOptions = llmOpenAiOptionsFromVariables((name) => variables[name]);
    expect(azureOptions).to.deep.equal({
      apiKey,
      timeoutSeconds: 90,
      azure: { endpoint: 'https://example.openai.azure.com/', deployment: 'gpt-4o-mini', apiVersion: '2024-10-21' },
    });
    expect(problems(azureOptions)).to.deep.equal([]);
    expect(problems(llmOpenAiOptionsFromVariables((name) => (name === 'HOSTED_PROVIDER' ? 'azure' : undefined))))
      .to.include('apiKey')
      .and.include('azure.endpoint');
  });
});

describe("llm-openai: the host's OPENAI_* variables", function () {
  this.timeout(20_000);
  let server: ChatCompletionsServer;
  const hostVariables: Record<string, string> = {
    OPENAI_API_KEY: 'sk-host-key-must-not-be-used',
    OPENAI_ADMIN_KEY: 'sk-admin-host-key-must-not-be-used',
    OPENAI_ORG_ID: 'org-host',
    OPENAI_PROJECT_ID: 'proj-host',
    OPENAI_LOG: 'debug',
    OPENAI_API_VERSION: '1999-01-01',
    OPENAI_CUSTOM_HEADERS: 'Authorization: Bearer sk-from-custom-headers\nX-From-Host: yes',
    AZURE_OPENAI_API_KEY: 'azure-host-key',
    AZURE_OPENAI_ENDPOINT: 'http://127.0.0.1:9/',
  };
  const saved: Record<string, string | undefined> = {};

  beforeEach(async () => {
    server = await startChatCompletionsServer({ apiKey });
    // Unreachable: a request that followed OPENAI_BASE_URL would fail.
    hostVariables.OPENAI_BASE_URL = `http://127.0.0.1:${await closedPort()}/v1`;
    for (const [name, value] of Object.entries(hostVariables)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });

  afterEach(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await server.close();
  });

  const noHostTrace = (headers: Record<string, unknown>) => {
    const sent = JSON.stringify(headers);
    for (const value of Object.values(hostVariables))
      if (!value.startsWith('http'))
        expect(sent).to.not.include(value.split('\n')[0]!.replace(/^Authorization: Bearer /, ''));
    expect(headers).to.not.have.any.keys('openai-organization', 'openai-project', 'x-from-host');
  };

  it('change nothing for an OpenAI-compatible API', async () => {
    const backend = await startBackend(optionsFor(server));
    expect(await collect(backend.generate(requestOf(8), new AbortController().signal))).to.have.lengthOf(8);
    const [request] = server.requests;
    expect(request?.headers.authorization).to.equal(`Bearer ${apiKey}`);
    noHostTrace(request!.headers);
  });

  it('change nothing for Azure OpenAI', async () => {
    const backend = await startBackend({
      apiKey,
      maxRetries: 0,
      azure: { endpoint: server.origin, deployment: 'chat-prod', apiVersion: '2024-10-21' },
    });
    expect(await collect(backend.generate(requestOf(8), new AbortController().signal))).to.have.lengthOf(8);
    const [request] = server.requests;
    expect(request?.path).to.equal('/openai/deployments/chat-prod/chat/completions?api-version=2024-10-21');
    expect(request?.headers['api-key']).to.equal(apiKey);
    noHostTrace(request!.headers);
  });
});
