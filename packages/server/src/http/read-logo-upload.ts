import type { Request } from 'express';
import busboy from 'busboy';
import { DocqaError } from '@docqa/plugin-api';
import { logoTooLarge, maxLogoBytes } from '@docqa/core/branding';

/**
 * A client that sends far more than the limit is drained up to this much, so it still reads the
 * 413 (closing mid-upload makes most clients report a broken connection instead); beyond it the
 * connection is cut.
 */
const maxDrainBytes = 64 * 1024 * 1024;

/**
 * The logo's bytes from a multipart form (field `file`, like document uploads) or from a raw
 * `image/*` body, read after authentication and never beyond the size limit.
 */
export async function readLogoUpload(req: Request): Promise<Buffer> {
  if (req.is('multipart/form-data')) return readMultipart(req);
  if (req.is(['image/*'])) return readLimited(req, () => drain(req));
  throw new DocqaError(
    'unsupported_media_type',
    'Send the logo as multipart/form-data (field "file") or as an image/* body.',
  );
}

function readLimited(stream: NodeJS.ReadableStream & { resume(): void }, onTooLarge?: () => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let failed = false;
    stream.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > maxLogoBytes) {
        failed = true;
        parts.length = 0;
        onTooLarge?.();
        reject(logoTooLarge(0));
        return;
      }
      parts.push(chunk);
    });
    stream.on('end', () => {
      if (!failed) resolve(Buffer.concat(parts));
    });
    stream.on('error', (error) => {
      if (!failed) reject(new DocqaError('bad_request', 'The logo upload was interrupted.', { cause: error }));
    });
  });
}

async function readMultipart(req: Request): Promise<Buffer> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { files: 1, fields: 5, fieldSize: 1024, parts: 6 } });
  } catch {
    throw new DocqaError('bad_request', 'The multipart body could not be read: its boundary is missing.');
  }
  const logo = new Promise<Buffer>((resolve, reject) => {
    let found = false;
    parser.on('file', (field, file) => {
      if (field !== 'file' || found) {
        // Heard, so a body cut inside this part (busboy destroys the stream) is no uncaught exception.
        file.on('error', () => undefined).resume();
        return;
      }
      found = true;
      readLimited(file, () => drain(req)).then(resolve, reject);
    });
    parser.on('error', (error) =>
      reject(new DocqaError('bad_request', 'The multipart body is malformed.', { cause: error })),
    );
    parser.on('close', () => {
      if (!found)
        reject(
          new DocqaError('validation_failed', 'The form has no "file" field.', {
            errors: [{ field: 'file', message: 'is required' }],
          }),
        );
    });
  });
  req.pipe(parser);
  return logo;
}

/** Stops parsing and discards the rest of the body, up to maxDrainBytes. */
function drain(req: Request): void {
  req.unpipe();
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > maxDrainBytes) req.destroy();
  });
  req.resume();
}
