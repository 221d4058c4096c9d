import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import {
  answerPieces,
  chatAnswerFor,
  startChatCompletionsServer,
  type ChatCompletionsServer,
} from '@docqa/plugin-testkit';
import {
  apiKey,
  closedPort,
  collect,
  collectUntilFailure,
  everythingIn,
  model,
  optionsFor,
  requestOf,
  startBackend,
} from './backend.test-support.js';

describe('llm-openai: failures', function () {
  this.timeout(20_000);
  let server: ChatCompletionsServer;
  const expectedPieces = answerPieces(chatAnswerFor(requestOf().messages));
  const newSignal = () => new AbortController().signal;

  beforeEach(async () => {
    server = await startChatCompletionsServer({ apiKey });
  });

  afterEach(async () => {
    await server.close();
  });

  it('fails with unavailable when the stream breaks after pieces were passed on, and does not ask again', async () => {
    server.failMidStream(3);
    const backend = await startBackend(optionsFor(server, { maxRetries: 2 }));
    const { pieces, failure } = await collectUntilFailure(backend.generate(requestOf(), newSignal()));
    expect(pieces).to.deep.equal(expectedPieces.slice(0, 3));
    expect(failure).to.be.instanceOf(DocqaError).and.have.property('code', 'unavailable');
    expect((failure as Error).message).to.include('broke off after 3 pieces');
    expect(server.requests).to.have.lengthOf(1);
  });

  it('asks again when the stream breaks before its first piece', async () => {
    server.failMidStream(0);
    const backend = await startBackend(optionsFor(server, { maxRetries: 1 }));
    expect(await collect(backend.generate(requestOf(), newSignal()))).to.deep.equal(expectedPieces);
    expect(server.requests).to.have.lengthOf(2);
  });

  it('retries a 503 before the first piece, and reports it once the retries are spent', async () => {
    server.failNext(503, 2);
    const retrying = await startBackend(optionsFor(server, { maxRetries: 2 }));
    expect(await collect(retrying.generate(requestOf(), newSignal()))).to.deep.equal(expectedPieces);
    expect(server.requests).to.have.lengthOf(3);

    server.failNext(503, 2);
    const once = await startBackend(optionsFor(server, { maxRetries: 1 }));
    const { failure } = await collectUntilFailure(once.generate(requestOf(), newSignal()));
    expect(failure).to.be.instanceOf(DocqaError).and.have.property('code', 'unavailable');
    expect((failure as Error).message)
      .to.include('HTTP 503 (2 attempts)')
      .and.include('overloaded');
    expect(server.requests).to.have.lengthOf(5);
  });

  it("reports a refused key as unavailable without the key or the server's echo of it", async () => {
    const wrongKey = 'sk-wrong-key-that-must-not-leak-0123';
    const backend = await startBackend(optionsFor(server, { apiKey: wrongKey, maxRetries: 2 }));
    const { failure } = await collectUntilFailure(backend.generate(requestOf(), newSignal()));
    expect(failure).to.be.instanceOf(DocqaError).and.have.property('code', 'unavailable');
    expect((failure as Error).message)
      .to.include('refused the API key (HTTP 401)')
      .and.include('HOSTED_API_KEY');
    expect(everythingIn(failure))
      .to.not.include(wrongKey)
      .and.not.include('wrong-key')
      .and.not.include('Incorrect API key');
    expect(server.requests, 'a refused key is not retried').to.have.lengthOf(1);
  });

  it('reports a prompt over the context window as validation_failed, without retrying', async () => {
    server.contextLength = 20;
    const backend = await startBackend(optionsFor(server, { maxRetries: 2 }));
    const { failure } = await collectUntilFailure(backend.generate(requestOf(64), newSignal()));
    expect(failure).to.be.instanceOf(DocqaError).and.have.property('code', 'validation_failed');
    expect((failure as Error).message)
      .to.include('context window')
      .and.include('maximum context length is 20');
    expect(server.requests).to.have.lengthOf(1);
  });

  it('recognises a context-length refusal by its wording when the server sends no code', async () => {
    server.failNext(400, 1, { message: "This model's maximum context length is 4096 tokens.", code: null });
    const backend = await startBackend(optionsFor(server));
    const { failure } = await collectUntilFailure(backend.generate(requestOf(), newSignal()));
    expect(failure).to.be.instanceOf(DocqaError).and.have.property('code', 'validation_failed');
  });

  it("reports another 4xx as unavailable with the server's message", async () => {
    server.failNext(422, 1, { message: "Invalid value for 'temperature'." });
    const backend = await startBackend(optionsFor(server, { maxRetries: 2 }));
    const { failure } = await collectUntilFailure(backend.generate(requestOf(), newSignal()));
    expect(failure).to.be.instanceOf(DocqaError).and.have.property('code', 'unavailable');
    expect((failure as Error).message)
      .to.include('HTTP 422')
      .and.include("Invalid value for 'temperature'.");
    expect(server.requests).to.have.lengthOf(1);
  });

  it('names the model when the server does not know it', async () => {
    await server.close();
    server = await startChatCompletionsServer({ apiKey, models: ['another-model'] });
    const backend = await startBackend(optionsFor(server));
    const { failure } = await collectUntilFailure(backend.generate(requestOf(), newSignal()));
    expect((failure as Error).message)
      .to.include('HTTP 404')
      .and.include(`model '${model}'`)
      .and.include('HOSTED_MODEL');
  });

  it('gives up after timeoutSeconds when the first piece is late, with unavailable', async () => {
    server.firstTokenDelayMs = 5_000;
    const backend = await startBackend(optionsFor(server, { timeoutSeconds: 1, maxRetries: 2 }));
    const started = Date.now();
    const { failure } = await collectUntilFailure(backend.generate(requestOf(), newSignal()));
    expect(failure).to.be.instanceOf(DocqaError).and.have.property('code', 'unavailable');
    expect((failure as Error).message)
      .to.include('did not finish the answer within 1 s')
      .and.include('INFERENCE_TIMEOUT_SECONDS');
    expect(Date.now() - started).to.be.within(900, 1_800);
    await server.waitForDisconnects(1, 2_000);
  });

  it('gives up after timeoutSeconds in the middle of a slow answer, after the pieces that came', async () => {
    server.reply = Array.from({ length: 30 }, (_, index) => `word${index}`).join(' ');
    server.tokenDelayMs = 300;
    const backend = await startBackend(optionsFor(server, { timeoutSeconds: 1 }));
    const { pieces, failure } = await collectUntilFailure(backend.generate(requestOf(), newSignal()));
    expect(pieces.length).to.be.within(2, 5);
    expect(failure).to.be.instanceOf(DocqaError).and.have.property('code', 'unavailable');
    await server.waitForDisconnects(1, 2_000);
  });

  it('reports an unreachable server as unavailable naming the address', async () => {
    const port = await closedPort();
    const backend = await startBackend({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey, model, maxRetries: 0 });
    const { failure } = await collectUntilFailure(backend.generate(requestOf(), newSignal()));
    expect(failure).to.be.instanceOf(DocqaError).and.have.property('code', 'unavailable');
    expect((failure as Error).message).to.include(`cannot reach the hosted LLM API at http://127.0.0.1:${port}/v1`);
  });

  it('does not turn an abort during a retry wait into a failure', async () => {
    server.failNext(503, 5);
    const backend = await startBackend(optionsFor(server, { maxRetries: 5 }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    expect(await collect(backend.generate(requestOf(), controller.signal))).to.deep.equal([]);
    expect(Date.now() - started).to.be.below(600);
  });
});
