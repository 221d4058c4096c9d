import { expect } from 'chai';
import {
  answerPieces,
  chatAnswerFor,
  startChatCompletionsServer,
  type ChatCompletionsServer,
} from '@docqa/plugin-testkit';
import { apiKey, collect, model, optionsFor, requestOf, startBackend } from './backend.test-support.js';

describe('llm-openai: generating', function () {
  this.timeout(20_000);
  let server: ChatCompletionsServer;
  const expectedPieces = answerPieces(chatAnswerFor(requestOf().messages));

  beforeEach(async () => {
    server = await startChatCompletionsServer({ apiKey });
  });

  afterEach(async () => {
    await server.close();
  });

  it('asks for a streamed chat completion with the messages, max_tokens, temperature and the key as a bearer token', async () => {
    const backend = await startBackend(optionsFor(server));
    const pieces = await collect(backend.generate(requestOf(40, { temperature: 0 }), new AbortController().signal));
    expect(pieces).to.deep.equal(expectedPieces);
    const [request] = server.requests;
    expect(request?.path).to.equal('/v1/chat/completions');
    expect(request?.headers.authorization).to.equal(`Bearer ${apiKey}`);
    expect(request?.body).to.deep.equal({
      model,
      messages: requestOf().messages,
      max_tokens: 40,
      temperature: 0,
      stream: true,
    });
  });

  it('uses the temperature option when the request names none, and stops at maxTokens', async () => {
    const backend = await startBackend(optionsFor(server, { temperature: 0.7 }));
    expect(await collect(backend.generate(requestOf(3), new AbortController().signal))).to.deep.equal(
      expectedPieces.slice(0, 3),
    );
    expect(server.requests[0]?.body).to.include({ temperature: 0.7, max_tokens: 3 });
  });

  it('passes pieces on as the server sends them, not when the answer is complete', async () => {
    server.reply = 'one two three four five six';
    server.tokenDelayMs = 100;
    const backend = await startBackend(optionsFor(server));
    const started = Date.now();
    const arrivals: number[] = [];
    for await (const _piece of backend.generate(requestOf(), new AbortController().signal))
      arrivals.push(Date.now() - started);
    expect(arrivals).to.have.lengthOf(6);
    // The server sends piece i at i × 100 ms: none can arrive earlier, and the first must arrive
    // long before the last is even sent (500 ms), which a buffering client would not manage.
    arrivals.forEach((arrival, index) => expect(arrival, `piece ${index}`).to.be.at.least(index * 100 - 5));
    expect(arrivals[0]).to.be.below(350);
  });

  it('talks to Azure OpenAI: the deployment path, api-version and the api-key header', async () => {
    const backend = await startBackend({
      apiKey,
      maxRetries: 0,
      azure: { endpoint: `${server.origin}/`, deployment: 'chat-prod', apiVersion: '2024-10-21' },
    });
    expect(await collect(backend.generate(requestOf(), new AbortController().signal))).to.deep.equal(expectedPieces);
    const [request] = server.requests;
    expect(request?.path).to.equal('/openai/deployments/chat-prod/chat/completions?api-version=2024-10-21');
    expect(request?.headers['api-key']).to.equal(apiKey);
    expect(request?.headers.authorization).to.equal(undefined);
    expect(await backend.info()).to.deep.include({
      backend: 'hosted',
      model: 'chat-prod',
      endpoint: `${server.origin}/`,
      gpu: false,
      contextLength: null,
    });
  });

  it('closes the request when its signal aborts mid-answer, and the iteration ends at once', async () => {
    server.tokenDelayMs = 50;
    const backend = await startBackend(optionsFor(server));
    const controller = new AbortController();
    const pieces: string[] = [];
    let abortedAt = 0;
    for await (const piece of backend.generate(requestOf(), controller.signal)) {
      pieces.push(piece);
      if (pieces.length === 2) {
        abortedAt = Date.now();
        controller.abort();
      }
    }
    expect(Date.now() - abortedAt).to.be.below(100);
    expect(pieces).to.have.lengthOf(2);
    await server.waitForDisconnects(1, 2_000);
    expect(server.requests[0]?.clientWentAway).to.equal(true);
    expect(server.requests[0]?.piecesSent).to.be.below(expectedPieces.length);
  });

  it('closes the request when the consumer stops reading early', async () => {
    server.tokenDelayMs = 50;
    const backend = await startBackend(optionsFor(server));
    for await (const _piece of backend.generate(requestOf(), new AbortController().signal)) break;
    await server.waitForDisconnects(1, 2_000);
    expect(server.activeGenerations).to.equal(0);
  });

  it('sends nothing for a signal aborted before it starts', async () => {
    const backend = await startBackend(optionsFor(server));
    const controller = new AbortController();
    controller.abort();
    expect(await collect(backend.generate(requestOf(), controller.signal))).to.deep.equal([]);
    expect(server.requests).to.have.lengthOf(0);
  });

  it('answers 100 streams at once, each completely', async () => {
    server.tokenDelayMs = 2;
    const backend = await startBackend(optionsFor(server));
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => collect(backend.generate(requestOf(), new AbortController().signal))),
    );
    for (const pieces of answers) expect(pieces).to.deep.equal(expectedPieces);
    expect(server.requests).to.have.lengthOf(100);
  });

  it('describes itself at once, without a request and without the key', async () => {
    const backend = await startBackend(optionsFor(server, { contextLength: 128_000 }));
    const info = await backend.info();
    expect(info).to.deep.equal({
      backend: 'hosted',
      model,
      contextLength: 128_000,
      gpu: false,
      endpoint: server.baseUrl,
    });
    expect(backend.capabilities).to.deep.equal({ streaming: true, tokenizer: false, generative: true });
    expect(backend.countTokens).to.equal(undefined);
    expect(JSON.stringify(info)).to.not.include(apiKey);
    expect(server.requests).to.have.lengthOf(0);
  });
});
