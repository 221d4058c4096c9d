/** One server-sent event: its `event:` name (`message` when none) and its `data:` lines joined. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * The events of a text/event-stream body as they arrive (the WHATWG format: blank-line separated
 * blocks of `field: value` lines, `:` comments such as DocQA's keep-alives, CR LF or LF).
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      // A CR at the very end may be the first half of a CR LF still on its way.
      const complete = buffer.endsWith('\r') ? buffer.length - 1 : buffer.length;
      const text = buffer.slice(0, complete).replace(/\r\n?/g, '\n');
      const blocks = text.split('\n\n');
      buffer = blocks.pop()! + buffer.slice(complete);
      for (const block of blocks) {
        const event = parseBlock(block);
        if (event) yield event;
      }
    }
    const last = parseBlock(buffer.replace(/\r\n?/g, '\n'));
    if (last) yield last;
  } finally {
    // A consumer that stops early (break, an abort) ends the request instead of leaving it open.
    await reader.cancel().catch(() => undefined);
  }
}

function parseBlock(block: string): ServerSentEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? null : { event, data: data.join('\n') };
}
