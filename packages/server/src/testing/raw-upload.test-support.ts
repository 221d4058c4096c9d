import http from 'node:http';

export interface RawUploadResult {
  /** 0 when no answer came: then `error` says what the client saw (ECONNRESET, …). */
  status: number;
  body: Record<string, unknown> | null;
  error: string | null;
}

export interface RawUploadOptions {
  token: string;
  /** The whole multipart body, or its parts sent one after another. */
  body: Buffer | Buffer[];
  boundary: string;
  /** Wait between the headers and the first byte of the body, and between pieces. */
  delayMs?: number;
  /** Stop sending and close the connection after this many pieces (an aborted upload). */
  abortAfterPieces?: number;
  agent?: http.Agent;
  contentType?: string;
}

/**
 * An upload the way slow or careless clients send one: headers first, the body later and in pieces,
 * sometimes never finished. fetch sends a small form in one write, so the order in which the server
 * sees headers, checks and parts (what decided whether the process crashed) never varies with it.
 */
export function rawUpload(url: string, options: RawUploadOptions): Promise<RawUploadResult> {
  const pieces = Array.isArray(options.body) ? options.body : [options.body];
  const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
  return new Promise((resolve) => {
    const request = http.request(`${url}/api/docs/upload`, {
      method: 'POST',
      agent: options.agent,
      headers: {
        authorization: `Bearer ${options.token}`,
        'content-type': options.contentType ?? `multipart/form-data; boundary=${options.boundary}`,
        'content-length': length,
      },
    });
    let settled = false;
    const settle = (result: RawUploadResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    request.on('error', (error: NodeJS.ErrnoException) =>
      settle({ status: 0, body: null, error: error.code ?? error.message }),
    );
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => {
        let body: Record<string, unknown> | null = null;
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          body = null;
        }
        settle({ status: response.statusCode ?? 0, body, error: null });
      });
    });
    request.flushHeaders();
    // Like most clients, it sends the whole body even when the answer comes first.
    const send = (index: number) => {
      if (request.destroyed) return;
      if (options.abortAfterPieces !== undefined && index >= options.abortAfterPieces) {
        request.destroy();
        settle({ status: 0, body: null, error: 'aborted by the client' });
        return;
      }
      const piece = pieces[index];
      if (piece === undefined) {
        request.end();
        return;
      }
      request.write(piece, () => setTimeout(() => send(index + 1), options.delayMs ?? 0));
    };
    setTimeout(() => send(0), options.delayMs ?? 0);
  });
}

/** A multipart/form-data body with one part per file, and the boundary it uses. */
export function multipartBody(
  files: Array<{ name: string; content: string | Buffer; field?: string }>,
  boundary = `docqa-${Math.random().toString(16).slice(2)}`,
): { boundary: string; parts: Buffer[] } {
  const parts = files.map((file) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: text/plain\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    ]),
  );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { boundary, parts };
}
