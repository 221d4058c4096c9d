import { createServer } from 'node:net';
import { expect } from 'chai';
import { createOutboundPolicy, DocqaError, type EmbeddingProvider, type Logger } from '@docqa/plugin-api';
import { describeEmbedderConformance } from '@docqa/plugin-testkit';
import embedderOpenAiPlugin, { type OpenAiEmbedderOptionsInput } from './index.js';
import { startEmbeddingsServer, vectorFor, type EmbeddingsServer } from './embeddings-server.test-support.js';

const apiKey = 'sk-test-0123456789abcdefSECRET';
const model = 'text-embedding-3-small';
const dimensions = 24;

const quietLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quietLogger };

/** Starts the plugin the way the kernel does, without a kernel: parsed options, a quiet logger. */
async function startProvider(options: OpenAiEmbedderOptionsInput): Promise<EmbeddingProvider> {
  return embedderOpenAiPlugin.init({
    options: embedderOpenAiPlugin.configSchema.parse(options),
    instanceId: 'embedder-openai',
    // No OUTBOUND_ALLOW: the base URL's host (loopback) is allowed because the options name it.
    deps: { outbound: createOutboundPolicy([]) },
    logger: quietLogger,
    onStop: () => {},
    signal: new AbortController().signal,
  });
}

const optionsFor = (
  server: EmbeddingsServer,
  extra: Partial<OpenAiEmbedderOptionsInput> = {},
): OpenAiEmbedderOptionsInput => ({
  baseUrl: `${server.origin}/v1`,
  apiKey,
  model,
  dimensions,
  maxRetries: 0,
  ...extra,
});

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a failure'),
    (failure: unknown) => failure,
  );
}

describeEmbedderConformance('embedder-openai (loopback OpenAI-compatible server)', {
  async start() {
    const server = await startEmbeddingsServer({ apiKey, dimensions });
    return { provider: await startProvider(optionsFor(server, { batchSize: 4 })), dispose: () => server.close() };
  },
});

describe('embedder-openai', function () {
  this.timeout(20_000);
  let server: EmbeddingsServer;

  beforeEach(async () => {
    server = await startEmbeddingsServer({ apiKey, dimensions, azureDeployment: 'embeddings-prod' });
  });

  afterEach(async () => {
    await server.close();
  });

  it('sends input arrays of batchSize texts with the key as a bearer token, and answers the vectors in order', async () => {
    const provider = await startProvider(optionsFor(server, { batchSize: 2 }));
    const texts = ['one', 'two', 'three', 'four', 'five'];
    const vectors = await provider.embed(texts);
    expect(server.requests.map((request) => request.body.input)).to.deep.equal([
      ['one', 'two'],
      ['three', 'four'],
      ['five'],
    ]);
    for (const request of server.requests) {
      expect(request.path).to.equal('/v1/embeddings');
      expect(request.headers.authorization).to.equal(`Bearer ${apiKey}`);
      expect(request.body).to.include({ model, encoding_format: 'float' });
      expect(request.body).to.not.have.property('dimensions');
    }
    expect(vectors.map((vector) => Array.from(vector))).to.deep.equal(
      texts.map((text) => Array.from(vectorFor(`${model}\u0000${text}`, dimensions))),
    );
  });

  it('asks for the declared dimensions when requestDimensions is set', async () => {
    server.dimensions = 1536; // the model's native length, shortened on request
    const provider = await startProvider(optionsFor(server, { requestDimensions: true }));
    const [vector] = await provider.embed(['shortened']);
    expect(server.requests[0]?.body.dimensions).to.equal(dimensions);
    expect(vector).to.have.lengthOf(dimensions);
  });

  it('fails with unavailable, naming both lengths, when the API answers other dimensions than declared', async () => {
    server.dimensions = 16;
    const provider = await startProvider(optionsFor(server));
    const error = await failureOf(provider.embed(['a text']));
    expect(error).to.be.instanceOf(DocqaError).and.have.property('code', 'unavailable');
    expect((error as Error).message)
      .to.include('16 dimensions')
      .and.include(`dimensions says ${dimensions}`)
      .and.include(model);
  });

  it('maps a refused key to unavailable without leaking the key, even when the server echoes it', async () => {
    const wrongKey = 'sk-wrong-key-that-must-not-leak-0123';
    const provider = await startProvider(optionsFor(server, { apiKey: wrongKey }));
    const error = await failureOf(provider.embed(['a text']));
    expect(error).to.be.instanceOf(DocqaError).and.have.property('code', 'unavailable');
    const everything = `${(error as Error).message} ${String((error as Error).stack)} ${JSON.stringify(error)} ${String((error as Error).cause)}`;
    expect(everything).to.include('HTTP 401').and.include('check the API key');
    expect(everything).to.not.include(wrongKey).and.not.include('wrong-key');
  });

  it('maps a server error to unavailable, and retries it when maxRetries allows', async () => {
    server.failNext(500);
    const noRetry = await startProvider(optionsFor(server));
    const error = await failureOf(noRetry.embed(['a text']));
    expect(error).to.be.instanceOf(DocqaError).and.have.property('code', 'unavailable');
    expect((error as Error).message).to.include('HTTP 500');

    server.failNext(503);
    const retrying = await startProvider(optionsFor(server, { maxRetries: 1 }));
    expect(await retrying.embed(['a text'])).to.have.lengthOf(1);
  });

  it('gives up on a slow server after timeoutSeconds with unavailable', async () => {
    server.delayMs = 3_000;
    const provider = await startProvider(optionsFor(server, { timeoutSeconds: 1 }));
    const started = Date.now();
    const error = await failureOf(provider.embed(['a text']));
    expect(error).to.be.instanceOf(DocqaError).and.have.property('code', 'unavailable');
    expect((error as Error).message).to.include('did not answer in time');
    expect(Date.now() - started).to.be.below(2_500);
  });

  it("stops a request under way when its signal is aborted, with the signal's reason", async () => {
    server.delayMs = 5_000;
    const provider = await startProvider(optionsFor(server));
    const controller = new AbortController();
    const reason = new Error('the user left');
    setTimeout(() => controller.abort(reason), 100);
    const started = Date.now();
    expect(await failureOf(provider.embed(['a text'], controller.signal))).to.equal(reason);
    expect(Date.now() - started).to.be.below(2_000);
    expect(server.requests).to.have.lengthOf(1); // it was sent, then cancelled
  });

  it('maps an unreachable server to unavailable naming the address', async () => {
    const port = await closedPort();
    const provider = await startProvider({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey,
      model,
      dimensions,
      maxRetries: 0,
    });
    const error = await failureOf(provider.embed(['a text']));
    expect(error).to.be.instanceOf(DocqaError).and.have.property('code', 'unavailable');
    expect((error as Error).message).to.include(`cannot reach the embedding API at http://127.0.0.1:${port}/v1`);
  });

  it('talks to Azure OpenAI: the deployment path, api-version and the api-key header', async () => {
    const provider = await startProvider({
      apiKey,
      model,
      dimensions,
      maxRetries: 0,
      azure: { endpoint: server.origin, deployment: 'embeddings-prod', apiVersion: '2024-10-21' },
    });
    const [vector] = await provider.embed(['through azure']);
    expect(Array.from(vector ?? [])).to.deep.equal(Array.from(vectorFor(`${model}\u0000through azure`, dimensions)));
    const [request] = server.requests;
    expect(request?.path).to.equal('/openai/deployments/embeddings-prod/embeddings?api-version=2024-10-21');
    expect(request?.headers['api-key']).to.equal(apiKey);
    expect(request?.headers.authorization).to.equal(undefined);
  });

  it('refuses baseUrl together with azure, and a dimensions that is not a positive integer', () => {
    const problems = (options: unknown) => {
      const result = embedderOpenAiPlugin.configSchema.safeParse(options);
      return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
    };
    const azure = { endpoint: 'https://example.openai.azure.com/', deployment: 'd', apiVersion: '2024-10-21' };
    expect(problems({ baseUrl: 'https://api.example.com/v1', apiKey, model, dimensions, azure })).to.deep.equal([
      'baseUrl',
    ]);
    expect(problems({ apiKey, model, dimensions: 0 })).to.deep.equal(['dimensions']);
    expect(problems({ apiKey, model, dimensions: 1.5 })).to.deep.equal(['dimensions']);
    expect(problems({ apiKey: '', model, dimensions })).to.deep.equal(['apiKey']);
  });
});

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
