import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { ConnectorDocument } from '@docqa/plugin-api';
import type { S3SourceConfig } from './config.js';
import type { ListedObject } from './listing.js';
import { describeS3Failure } from './s3-client.js';

/*
 * The media type of an object. ListObjectsV2 does not return Content-Type, and asking for it costs one
 * HEAD request per object, so for the extensions DocQA reads the type follows from the name (which is
 * also what `include` selected the object by). For other names (an `include` glob matching keys
 * without a known extension) the stored Content-Type is asked for, unless it is the generic
 * "octet-stream" many uploaders set, which says nothing.
 */
const mediaTypeByExtension: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
};

const uninformativeContentTypes = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

export async function mediaTypeOf(
  client: S3Client,
  config: S3SourceConfig,
  key: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  const extension = /\.[^./]+$/.exec(key)?.[0].toLowerCase();
  const known = extension === undefined ? undefined : mediaTypeByExtension[extension];
  if (known !== undefined) return known;
  try {
    const head = await client.send(new HeadObjectCommand({ Bucket: config.bucket, Key: key }), { abortSignal: signal });
    const contentType = head.ContentType?.split(';')[0]?.trim().toLowerCase() ?? '';
    return uninformativeContentTypes.has(contentType) ? undefined : contentType;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw describeS3Failure(error, config, `reading the metadata of object '${key}'`);
  }
}

/**
 * The ETag as a content hash, when it is one. For a single-part upload without KMS encryption the
 * ETag is the MD5 of the bytes; a multipart ETag (`<md5 of part md5s>-<parts>`) is not a hash of the
 * content, so none is given and the pipeline hashes the bytes it reads, as it does for every document.
 */
export function contentHashOf(etag: string): string | undefined {
  return /^[0-9a-f]{32}$/i.test(etag) ? etag.toLowerCase() : undefined;
}

export function toConnectorDocument(
  client: S3Client,
  config: S3SourceConfig,
  object: ListedObject,
  path: string,
  mediaType: string | undefined,
  shutdown: AbortSignal,
): ConnectorDocument {
  const contentHash = contentHashOf(object.etag);
  return {
    // The key is the one stable id S3 has: an overwrite keeps it, so it replaces the document.
    externalId: object.key,
    path,
    title: path.slice(path.lastIndexOf('/') + 1),
    ...(mediaType === undefined ? {} : { mediaType }),
    size: object.size,
    modifiedAt: object.lastModified,
    ...(contentHash === undefined ? {} : { contentHash }),
    metadata: { bucket: config.bucket, key: object.key, etag: object.etag },
    async open(signal?: AbortSignal) {
      const stop = signal === undefined ? shutdown : AbortSignal.any([signal, shutdown]);
      return readObject(client, config, object.key, stop);
    },
  };
}

/** Streams the object's bytes; nothing is buffered beyond the HTTP response's own chunks. */
async function readObject(
  client: S3Client,
  config: S3SourceConfig,
  key: string,
  signal: AbortSignal,
): Promise<AsyncIterable<Uint8Array>> {
  signal.throwIfAborted();
  let body;
  try {
    const response = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: key }), {
      abortSignal: signal,
    });
    body = response.Body;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw describeS3Failure(error, config, `reading object '${key}'`);
  }
  if (body === undefined) return emptyBody();
  return streamBody(
    body as unknown as AsyncIterable<Uint8Array> & { destroy?(error?: Error): void },
    config,
    key,
    signal,
  );
}

async function* streamBody(
  body: AsyncIterable<Uint8Array> & { destroy?(error?: Error): void },
  config: S3SourceConfig,
  key: string,
  signal: AbortSignal,
): AsyncGenerator<Uint8Array> {
  // The SDK's abort covers the request; once the body is flowing, the stream itself must be closed.
  const stopReading = () => body.destroy?.(signal.reason as Error);
  signal.addEventListener('abort', stopReading, { once: true });
  try {
    for await (const chunk of body) {
      signal.throwIfAborted();
      yield chunk;
    }
    signal.throwIfAborted();
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw describeS3Failure(error, config, `reading object '${key}'`);
  } finally {
    signal.removeEventListener('abort', stopReading);
    // Also when the reader stops early: release the connection instead of leaving it half-read.
    body.destroy?.();
  }
}

async function* emptyBody(): AsyncGenerator<Uint8Array> {}
