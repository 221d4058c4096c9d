import { expect } from 'chai';
import { readServerSentEvents, type ServerSentEvent } from './sse.js';

/** A response body that arrives in exactly these pieces, as a network may cut it. */
function body(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function collect(pieces: string[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(body(pieces))) events.push(event);
  return events;
}

describe('@docqa/client: server-sent events', () => {
  it('reads events cut anywhere, CR LF or LF, skipping comments and blocks without data', async () => {
    const events = await collect([
      ': keep-alive\n\nevent: del',
      'ta\ndata: {"text":"Hel"}\r',
      '\n\r\nevent: delta\ndata: {"text":"lo"}\n\nevent: nothing\n\n',
      'data: line one\ndata: line two\n\nevent: done\ndata: {}',
    ]);
    expect(events).to.deep.equal([
      { event: 'delta', data: '{"text":"Hel"}' },
      { event: 'delta', data: '{"text":"lo"}' },
      { event: 'message', data: 'line one\nline two' },
      { event: 'done', data: '{}' },
    ]);
  });

  it('keeps multi-byte characters whole across pieces', async () => {
    const bytes = new TextEncoder().encode('data: café ✓\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const events: ServerSentEvent[] = [];
    for await (const event of readServerSentEvents(stream)) events.push(event);
    expect(events).to.deep.equal([{ event: 'message', data: 'café ✓' }]);
  });
});
