import { expect } from 'chai';
import { answerPieces, chatAnswerFor, startChatCompletionsServer, type ChatCompletionsServer } from './index.js';

const apiKey = 'sk-chat-server-test-0123456789';
const question =
  'Passages:\n[1] Invoices: Invoices are archived for ten years.\n[2] Passwords: Reset it from the sign-in page.\n\nQuestion: How long are invoices kept?';
const messages = [
  { role: 'system', content: 'Cite passages as [n].' },
  { role: 'user', content: question },
];
const expectedAnswer =
  'According to [1], Invoices are archived for ten years. According to [2], Reset it from the sign-in page.';

/** One parsed SSE event and when it arrived. */
interface Received {
  data: string;
  at: number;
}

/** Reads an SSE body as it arrives, timing each event. */
async function readEvents(response: Response): Promise<Received[]> {
  const events: Received[] = [];
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const bytes of response.body as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(bytes, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      events.push({ data: buffered.slice(0, end).replace(/^data: /, ''), at: Date.now() });
      buffered = buffered.slice(end + 2);
    }
  }
  return events;
}

/** A JSON body, loosely typed: the tests check its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const jsonOf = (response: Response): Promise<any> => response.json();

const contentOf = (events: Received[]): string[] =>
  events
    .filter((event) => event.data !== '[DONE]')
    .map((event) => JSON.parse(event.data).choices[0]?.delta?.content as string | undefined)
    .filter((content): content is string => typeof content === 'string' && content !== '');

describe('testkit OpenAI chat-completions server', function () {
  this.timeout(20_000);
  let server: ChatCompletionsServer;

  const chat = (
    body: Record<string, unknown>,
    init: { key?: string | null; path?: string; signal?: AbortSignal } = {},
  ) =>
    fetch(`${server.origin}${init.path ?? '/v1/chat/completions'}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(init.key === null ? {} : { authorization: `Bearer ${init.key ?? apiKey}` }),
      },
      body: JSON.stringify(body),
      ...(init.signal ? { signal: init.signal } : {}),
    });

  beforeEach(async () => {
    server = await startChatCompletionsServer({ apiKey });
  });

  afterEach(async () => {
    await server.close();
  });

  it('derives a citing answer from the numbered passages of the last user message', () => {
    expect(chatAnswerFor(messages)).to.equal(expectedAnswer);
    expect(chatAnswerFor([{ role: 'user', content: 'no passages here' }])).to.match(/nothing to cite/);
    expect(answerPieces('According to [1], yes.')).to.deep.equal(['According', ' to', ' [1],', ' yes.']);
  });

  it('answers a non-streaming request with a chat.completion and usage', async () => {
    const response = await chat({ model: 'gpt-test', messages });
    expect(response.status).to.equal(200);
    const body = await jsonOf(response);
    expect(body).to.include({ object: 'chat.completion', model: 'gpt-test' });
    expect(body.choices[0].message).to.include({ role: 'assistant', content: expectedAnswer });
    expect(body.choices[0].finish_reason).to.equal('stop');
    expect(body.usage.completion_tokens).to.equal(answerPieces(expectedAnswer).length);
    expect(server.requests[0]).to.include({ method: 'POST', path: '/v1/chat/completions' });
    expect(server.requests[0]?.body).to.deep.include({ model: 'gpt-test' });
  });

  it('streams one word per chunk, then a finish chunk, usage when asked, and [DONE]', async () => {
    const response = await chat({ model: 'gpt-test', messages, stream: true, stream_options: { include_usage: true } });
    expect(response.headers.get('content-type')).to.match(/^text\/event-stream/);
    const events = await readEvents(response);
    expect(events.at(-1)?.data).to.equal('[DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data));
    expect(chunks[0].choices[0].delta).to.deep.equal({ role: 'assistant', content: '' });
    expect(contentOf(events)).to.deep.equal(answerPieces(expectedAnswer));
    const finish = chunks.at(-2);
    expect(finish.choices[0]).to.include({ finish_reason: 'stop' });
    const promptTokens = messages.reduce((total, message) => total + answerPieces(message.content).length, 0);
    const completionTokens = answerPieces(expectedAnswer).length;
    expect(chunks.at(-1)).to.deep.include({
      choices: [],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    });
    for (const chunk of chunks) expect(chunk).to.include({ object: 'chat.completion.chunk' });
  });

  it('stops at max_tokens or max_completion_tokens words with finish_reason length', async () => {
    const limited = await readEvents(await chat({ model: 'gpt-test', messages, stream: true, max_tokens: 3 }));
    expect(contentOf(limited)).to.deep.equal(['According', ' to', ' [1],']);
    expect(JSON.parse(limited.at(-2)!.data).choices[0].finish_reason).to.equal('length');
    const newer = await jsonOf(await chat({ model: 'gpt-test', messages, max_completion_tokens: 2 }));
    expect(newer.choices[0].message.content).to.equal('According to');
  });

  it('answers a fixed reply when one is set', async () => {
    server.reply = 'Fixed words only.';
    expect(contentOf(await readEvents(await chat({ model: 'm', messages, stream: true })))).to.deep.equal([
      'Fixed',
      ' words',
      ' only.',
    ]);
  });

  it('refuses a missing or wrong key with an OpenAI-style 401 that echoes the key', async () => {
    const missing = await chat({ model: 'm', messages }, { key: null });
    expect(missing.status).to.equal(401);
    const wrong = await chat({ model: 'm', messages }, { key: 'sk-wrong' });
    expect(wrong.status).to.equal(401);
    expect((await jsonOf(wrong)).error)
      .to.include({ code: 'invalid_api_key' })
      .and.have.property('message')
      .that.includes('sk-wrong');
  });

  it('serves Azure deployments with the api-key header and an api-version, opening with a prompt-filter chunk', async () => {
    const path = '/openai/deployments/chat-prod/chat/completions';
    const azure = (query: string, key: string) =>
      fetch(`${server.origin}${path}${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'api-key': key },
        body: JSON.stringify({ messages, stream: true }),
      });
    expect((await azure('', apiKey)).status).to.equal(400);
    expect((await azure('?api-version=2024-10-21', 'wrong')).status).to.equal(401);
    const events = await readEvents(await azure('?api-version=2024-10-21', apiKey));
    expect(JSON.parse(events[0]!.data)).to.deep.include({ choices: [] }).and.have.property('prompt_filter_results');
    expect(JSON.parse(events[1]!.data).model).to.equal('chat-prod');
    expect(contentOf(events).join('')).to.equal(expectedAnswer);
  });

  it('lists models and refuses others when models are given', async () => {
    await server.close();
    server = await startChatCompletionsServer({ apiKey, models: ['only-model'] });
    const list = await jsonOf(
      await fetch(`${server.baseUrl}/models`, { headers: { authorization: `Bearer ${apiKey}` } }),
    );
    expect(list.data.map((model: { id: string }) => model.id)).to.deep.equal(['only-model']);
    const unknown = await chat({ model: 'other', messages });
    expect(unknown.status).to.equal(404);
    expect((await jsonOf(unknown)).error.code).to.equal('model_not_found');
  });

  it('fails the next requests on demand with an OpenAI-style error, then answers again', async () => {
    server.failNext(503, 2);
    expect((await chat({ model: 'm', messages })).status).to.equal(503);
    expect((await chat({ model: 'm', messages })).status).to.equal(503);
    expect((await chat({ model: 'm', messages })).status).to.equal(200);
    server.failNext(400, 1, { message: 'custom', code: 'custom_code' });
    expect((await jsonOf(await chat({ model: 'm', messages }))).error).to.include({
      message: 'custom',
      code: 'custom_code',
      type: 'invalid_request_error',
    });
  });

  it('refuses a prompt plus max_tokens over contextLength as context_length_exceeded', async () => {
    server.contextLength = 35; // the prompt is 27 words
    const refused = await chat({ model: 'm', messages, max_tokens: 10 });
    expect(refused.status).to.equal(400);
    expect((await jsonOf(refused)).error)
      .to.include({ code: 'context_length_exceeded' })
      .and.have.property('message')
      .that.includes('maximum context length is 35');
    expect((await chat({ model: 'm', messages, max_tokens: 5 })).status).to.equal(200);
  });

  it('breaks the connection after some pieces when asked to fail mid-stream', async () => {
    server.failMidStream(2);
    const response = await chat({ model: 'm', messages, stream: true });
    const decoder = new TextDecoder();
    let text = '';
    const failure = await (async () => {
      for await (const bytes of response.body as AsyncIterable<Uint8Array>)
        text += decoder.decode(bytes, { stream: true });
    })().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure, 'the body ended cleanly').to.be.instanceOf(Error);
    expect(text).to.include('"content":"According"').and.include('"content":" to"').and.not.include('[DONE]');
    expect(server.requests[0]?.piecesSent).to.equal(2);
    expect(server.disconnects, 'a break by the server is not a client leaving').to.equal(0);
  });

  it('sees the client go away mid-answer and stops generating', async () => {
    server.tokenDelayMs = 50;
    const controller = new AbortController();
    const response = await chat({ model: 'm', messages, stream: true }, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await server.waitForDisconnects(1, 2_000);
    expect(server.requests[0]?.clientWentAway).to.equal(true);
    const sent = server.requests[0]!.piecesSent;
    expect(sent).to.be.below(answerPieces(expectedAnswer).length);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(server.requests[0]!.piecesSent, 'pieces written after the client left').to.equal(sent);
    expect(server.activeGenerations).to.equal(0);
  });

  it('sends the first piece after firstTokenDelayMs and each next one tokenDelayMs later, writing each at once', async () => {
    server.firstTokenDelayMs = 200;
    server.tokenDelayMs = 40;
    const started = Date.now();
    const events = (await readEvents(await chat({ model: 'm', messages, stream: true, max_tokens: 4 }))).filter(
      (event) => event.data.includes('"content":"') && !event.data.includes('"content":""'),
    );
    expect(events).to.have.lengthOf(4);
    // Piece i is due firstTokenDelayMs + i × tokenDelayMs after the request (a late one does not delay the next ones further).
    events.forEach((event, index) => expect(event.at - started, `piece ${index}`).to.be.at.least(200 + index * 40 - 5));
    expect(events[0]!.at - started).to.be.below(600);
    expect(events[3]!.at - events[0]!.at).to.be.below(500);
  });

  it('streams 100 answers at once, none waiting for another', async () => {
    // Each answer waits a second before its first piece: a server that took them one at a time
    // would never hold more than one, whatever the machine's speed.
    server.firstTokenDelayMs = 1_000;
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, server.activeGenerations)), 5);
    const answers = await Promise.all(
      Array.from({ length: 100 }, async () =>
        contentOf(await readEvents(await chat({ model: 'm', messages, stream: true }))).join(''),
      ),
    ).finally(() => clearInterval(sampler));
    expect(new Set(answers)).to.deep.equal(new Set([expectedAnswer]));
    expect(peak, 'answers generated at once').to.be.at.least(50);
  });
});
