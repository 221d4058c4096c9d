import type { ServerResponse } from 'node:http';

/** Sends the head of a server-sent event stream at once, before the first event is ready. */
export function startEventStream(res: ServerResponse): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    // nginx buffers proxied responses unless told not to.
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
}

/**
 * Events go out together when they come together: the extractive backend has its whole answer at
 * once and yields it a word per delta, hundreds of events within one turn of the event loop, which
 * were as many writes (a chunk of the chunked encoding each, and as many buffers in the socket's
 * writev: 5 % of the server's samples under 50 SSE clients). Events wait for the end of the turn
 * (setImmediate) and leave in one write; a model that streams piece by piece still sends each piece
 * in the turn it arrives. The bytes of the stream are the same.
 */
export class EventStreamWriter {
  #pending = '';
  #scheduled = false;

  constructor(private readonly res: ServerResponse) {}

  /** One or more whole events (each ending in a blank line), sent at the end of this turn. */
  send(events: string): void {
    this.#pending += events;
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#flush());
  }

  /** A comment line keeps proxies from closing a quiet stream; it goes out at once, after what waits. */
  comment(text: string): void {
    this.#pending += `: ${text}\n\n`;
    this.#flush();
  }

  /** Ends the response with whatever still waits, unless the client is gone. */
  end(): void {
    const last = this.#pending;
    this.#pending = '';
    if (this.res.writableEnded || this.res.destroyed) return;
    if (last === '') this.res.end();
    else this.res.end(last);
  }

  #flush(): void {
    this.#scheduled = false;
    const text = this.#pending;
    this.#pending = '';
    if (text === '' || this.res.writableEnded || this.res.destroyed) return;
    this.res.write(text);
  }
}
