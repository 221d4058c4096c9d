import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { DocqaError } from '@docqa/plugin-api';

/** An upload as the documents module sees it: the body's bytes and the type that says how to read them. */
export interface UploadBody {
  stream: Readable;
  contentType: string | undefined;
}

export type MultipartPart =
  | { kind: 'field'; name: string; value: string }
  | {
      kind: 'file';
      name: string;
      filename: string | undefined;
      mimeType: string;
      stream: Readable & { truncated?: boolean };
    };

export interface MultipartLimits {
  files: number;
  fields: number;
  fieldSize: number;
}

/**
 * The parts of a multipart/form-data body, one at a time, for a `for await` loop. busboy speaks in
 * events; a consumer that chains promises on them must attach a handler to every link before it can
 * reject, and one missed handler was an unhandled rejection that ended the process (a plan limit
 * reached before the first part arrived). Awaited one by one, every failure reaches the caller.
 *
 * A file part's stream must be read to its end (or resumed) before the next part is asked for:
 * busboy does not parse further while a file stream waits. Leaving the loop early stops parsing; the
 * rest of the body is the HTTP layer's to drain.
 */
export async function* multipartParts(body: UploadBody, limits: MultipartLimits): AsyncGenerator<MultipartPart> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': body.contentType ?? '' },
      limits: {
        files: limits.files,
        fields: limits.fields,
        fieldSize: limits.fieldSize,
        parts: limits.files + limits.fields,
      },
    });
  } catch {
    throw new DocqaError('bad_request', 'The multipart body has no boundary; send it as multipart/form-data.');
  }
  const waiting: MultipartPart[] = [];
  let failure: DocqaError | null = null;
  let finished = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  // The file part being read: a body that breaks off mid-file must end its stream too, or whoever
  // reads it waits for bytes that never come (and keeps its staged file).
  let reading: Readable | null = null;
  const fail = (error: DocqaError) => {
    failure ??= error;
    reading?.destroy(error);
    notify();
  };
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated)
      fail(new DocqaError('validation_failed', `The form field ${name} is longer than ${limits.fieldSize} bytes.`));
    else waiting.push({ kind: 'field', name, value });
    notify();
  });
  const malformed = () => new DocqaError('bad_request', 'The multipart body is malformed or was cut short.');
  parser.on('file', (name, stream, info) => {
    // A body that ends inside this file makes busboy destroy the stream with its own error, maybe
    // before whoever reads it has attached a listener: an uncaught exception that ended the process.
    // Heard here, it fails the loop; a reader attached later finds the stream destroyed.
    stream.on('error', () => fail(malformed()));
    waiting.push({ kind: 'file', name, filename: info.filename, mimeType: info.mimeType, stream });
    notify();
  });
  parser.on('filesLimit', () =>
    fail(new DocqaError('validation_failed', `An upload may hold at most ${limits.files} files.`)),
  );
  parser.on('fieldsLimit', () =>
    fail(new DocqaError('validation_failed', `An upload may hold at most ${limits.fields} form fields.`)),
  );
  parser.on('partsLimit', () => fail(new DocqaError('validation_failed', 'The upload holds too many parts.')));
  parser.on('error', () => fail(malformed()));
  parser.on('close', () => {
    finished = true;
    notify();
  });
  // A client that goes away mid-body: the stream errors (or closes unfinished) and parsing stops.
  const aborted = () => fail(new DocqaError('bad_request', 'The upload was aborted by the client.'));
  const closedEarly = () => {
    if (!body.stream.readableEnded) aborted();
  };
  body.stream.on('error', aborted);
  body.stream.on('close', closedEarly);
  body.stream.pipe(parser);
  try {
    for (;;) {
      if (failure) throw failure;
      const next = waiting.shift();
      if (next) {
        reading = next.kind === 'file' ? next.stream : null;
        yield next;
        continue;
      }
      if (finished) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    body.stream.unpipe(parser);
    body.stream.off('error', aborted);
    body.stream.off('close', closedEarly);
    // File streams nobody will read again must not hold busboy (or its buffers) open.
    for (const part of waiting) if (part.kind === 'file') part.stream.resume();
    parser.removeAllListeners('file');
    parser.on('file', (_name, stream) => stream.on('error', () => undefined).resume());
    parser.on('error', () => undefined);
  }
}
