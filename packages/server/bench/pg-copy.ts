/**
 * COPY … FROM STDIN over node-postgres's own connection, without pg-copy-streams (not installed):
 * a "submittable" query, the extension point pg-copy-streams itself uses. pg hands it the protocol
 * connection when the server answers CopyInResponse; we send CopyData messages, then CopyDone. It works
 * on a PostgreSQL server and on PGlite's node-postgres adapter (which forwards the same messages).
 */
import { once } from 'node:events';
import type pg from 'pg';

/** The part of pg's protocol connection a COPY needs (not in pg's public types). */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
  stream: { writableNeedDrain?: boolean; once?: (event: string, listener: () => void) => unknown };
}

class CopyFromStdin {
  #rows = 0;
  #error: Error | undefined;
  readonly done: Promise<number>;
  #resolve!: (rows: number) => void;
  #reject!: (error: Error) => void;

  constructor(
    private readonly text: string,
    private readonly source: AsyncIterable<Buffer>,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  submit(connection: CopyConnection): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    void (async () => {
      try {
        for await (const chunk of this.source) {
          if (this.#error) throw this.#error;
          connection.sendCopyFromChunk(chunk);
          // A socket's buffer is bounded: wait for it to drain (PGlite's adapter has no socket).
          if (connection.stream.writableNeedDrain) await once(connection.stream as never, 'drain');
        }
        connection.endCopyFrom();
      } catch (error) {
        connection.sendCopyFail(error instanceof Error ? error.message : String(error));
      }
    })();
  }

  handleCommandComplete(message: { text?: string }): void {
    this.#rows = Number(/^COPY (\d+)/.exec(message.text ?? '')?.[1] ?? 0);
  }

  handleError(error: Error): void {
    // pg forgets the query on an error, so ReadyForQuery will not reach us: settle now. The server
    // ignores the CopyData still on its way, as the protocol says it must.
    this.#error = error;
    this.#reject(error);
  }

  handleReadyForQuery(): void {
    this.#resolve(this.#rows);
  }

  // Messages a COPY never gets; pg calls them on whatever query is active.
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
}

/** Runs `COPY … FROM STDIN` with the bytes `source` yields; resolves with the rows copied. */
export function copyFrom(client: pg.PoolClient, text: string, source: AsyncIterable<Buffer>): Promise<number> {
  const copy = new CopyFromStdin(text, source);
  client.query(copy as unknown as pg.QueryConfig);
  return copy.done;
}

/** The binary COPY header: signature, flags, header extension length. */
export const binaryCopyHeader = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
/** The binary COPY trailer: a field count of -1. */
export const binaryCopyTrailer = Buffer.from([0xff, 0xff]);

/**
 * One row of vector_embedding (space, dimensions, chunk_id, document_id, embedding) in the binary COPY
 * format: each field's length then its bytes; text as UTF-8, integer as int32, and the vector as
 * pgvector's binary form (int16 dimensions, int16 unused, then float4s, all big-endian).
 */
export function binaryVectorRow(space: string, chunkId: string, documentId: string, vector: Float32Array): Buffer {
  const texts = [space, chunkId, documentId].map((value) => Buffer.from(value, 'utf8'));
  const vectorBytes = 4 + 4 * vector.length;
  const size = 2 + texts.reduce((sum, text) => sum + 4 + text.length, 0) + 8 + 4 + vectorBytes;
  const row = Buffer.allocUnsafe(size);
  let at = row.writeInt16BE(5, 0);
  const writeText = (text: Buffer) => {
    at = row.writeInt32BE(text.length, at);
    at += text.copy(row, at);
  };
  writeText(texts[0]!);
  at = row.writeInt32BE(4, at);
  at = row.writeInt32BE(vector.length, at);
  writeText(texts[1]!);
  writeText(texts[2]!);
  at = row.writeInt32BE(vectorBytes, at);
  at = row.writeInt16BE(vector.length, at);
  at = row.writeInt16BE(0, at);
  for (const value of vector) at = row.writeFloatBE(value, at);
  return row;
}

/** The same row in COPY's text format (tab-separated; none of these values needs escaping). */
export function textVectorRow(space: string, chunkId: string, documentId: string, vector: Float32Array): Buffer {
  return Buffer.from(
    `${space}\t${vector.length}\t${chunkId}\t${documentId}\t[${Array.prototype.join.call(vector, ',')}]\n`,
    'utf8',
  );
}
