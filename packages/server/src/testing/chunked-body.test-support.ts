import net from 'node:net';
import { expect } from 'chai';

/**
 * A POST's streamed answer as the chunks of its chunked encoding: one per write the server made
 * (fetch and the SDKs join them, so only a raw socket tells how many writes an answer took).
 */
export async function rawChunkedBody(url: string, token: string, body: unknown): Promise<string[]> {
  const { hostname, port, pathname } = new URL(url);
  const payload = JSON.stringify(body);
  const socket = net.connect(Number(port), hostname);
  socket.write(
    [
      `POST ${pathname} HTTP/1.1`,
      `Host: ${hostname}`,
      `Authorization: Bearer ${token}`,
      'Accept: text/event-stream',
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(payload)}`,
      '',
      payload,
    ].join('\r\n'),
  );
  // The stream says Connection: keep-alive, so the socket stays open: read until the last chunk.
  let raw = Buffer.alloc(0);
  for await (const data of socket) {
    raw = Buffer.concat([raw, data as Buffer]);
    const chunks = chunksOf(raw);
    if (chunks) {
      socket.destroy();
      return chunks;
    }
  }
  throw new Error(`the stream ended without its last chunk: ${raw.toString()}`);
}

/** The chunks of a whole chunked response, or null while its last (empty) chunk has not arrived. */
function chunksOf(raw: Buffer): string[] | null {
  let at = raw.indexOf('\r\n\r\n');
  if (at < 0) return null;
  expect(raw.subarray(0, at).toString()).to.match(/^HTTP\/1\.1 200[^]*transfer-encoding: chunked/i);
  at += 4;
  const chunks: string[] = [];
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(raw.subarray(at, lineEnd).toString(), 16);
    if (size === 0) return chunks;
    if (raw.length < lineEnd + 2 + size + 2) return null;
    chunks.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size).toString());
    at = lineEnd + 2 + size + 2;
  }
}
