// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

export interface SseEvent {
  type: string;
  data: Json;
  /** Milliseconds from sending the request to this event's arrival. */
  at: number;
}

export interface StreamOptions {
  /** Abort the request after this many delta events (a client that goes away). */
  abortAfterDeltas?: number;
}

/**
 * POSTs to /api/chat with Accept: text/event-stream and parses the events as they arrive, the way
 * a browser's EventSource would (blank-line separated, `event:` and `data:` fields, `:` comments).
 */
export async function chatStream(
  baseUrl: string,
  token: string,
  body: unknown,
  options: StreamOptions = {},
): Promise<{ status: number; headers: Headers; events: SseEvent[]; json: Json | null }> {
  const started = performance.now();
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: res.status, headers: res.headers, events: [], json: (await res.json()) as Json };
  }
  const events: SseEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  let deltas = 0;
  try {
    for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(bytes, { stream: true });
      let boundary: number;
      while ((boundary = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        const event = parseBlock(block, performance.now() - started);
        if (!event) continue;
        events.push(event);
        if (event.type === 'delta' && ++deltas === options.abortAfterDeltas) {
          controller.abort();
          return { status: res.status, headers: res.headers, events, json: null };
        }
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return { status: res.status, headers: res.headers, events, json: null };
}

function parseBlock(block: string, at: number): SseEvent | null {
  let type = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    if (line.startsWith('event: ')) type = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (data.length === 0) return null;
  return { type, data: JSON.parse(data.join('\n')) as Json, at };
}
