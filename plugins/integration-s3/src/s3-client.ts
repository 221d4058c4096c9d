import http from 'node:http';
import https from 'node:https';
import { S3Client } from '@aws-sdk/client-s3';
import { DocqaError, type OutboundGuard } from '@docqa/plugin-api';
import { describeStore, type S3SourceConfig } from './config.js';

/**
 * One client per opened source, released by the source's close(). Its connections resolve host
 * names through the outbound guard, which refuses non-public addresses the plugin's outboundAllow
 * option does not allow (the address checked is the one connected to). An endpoint written as an
 * address literal is never looked up: the sync checks it first (`guard.checkUrl`).
 */
export function createS3Client(config: S3SourceConfig, guard: OutboundGuard): S3Client {
  // keepAlive as the SDK's own default agents have it: the listing and document reads reuse connections.
  const agentOptions = { keepAlive: true, lookup: guard.lookup };
  return new S3Client({
    requestHandler: { httpAgent: new http.Agent(agentOptions), httpsAgent: new https.Agent(agentOptions) },
    ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
    region: config.region,
    forcePathStyle: config.force_path_style,
    // Only these credentials: never the server's environment, profile or instance role, which
    // would let an API user index whatever the DocQA host itself may read.
    credentials: { accessKeyId: config.access_key_id, secretAccessKey: config.secret_access_key },
    // The SDK's newer integrity checksums (CRC32 headers and trailers) are not implemented by every
    // S3-compatible store and are refused by some; send and check them only where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** What the SDK's service and network errors carry that we look at. */
interface SdkFailure {
  name?: string;
  Code?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const refusedCredentials = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'InvalidToken',
  'ExpiredToken',
  'AuthorizationHeaderMalformed',
]);
const unreachable = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'TimeoutError',
]);

/**
 * Turns an SDK failure into a DocqaError naming the store and bucket, and what to fix. The secret
 * never appears: it is not in our messages, and is cut out of the store's message should an odd
 * store echo it back. `action` says what was being done ("listing", "reading object 'a.pdf'").
 */
export function describeS3Failure(error: unknown, config: S3SourceConfig, action: string): DocqaError {
  if (DocqaError.is(error)) return error;
  const failure = (error ?? {}) as SdkFailure;
  // Service errors carry `Code`/`name` (NoSuchBucket); network errors a
  // Node `code` (ECONNREFUSED) and the name "Error".
  const code =
    failure.Code ??
    (failure.name !== undefined && failure.name !== 'Error' ? failure.name : undefined) ??
    failure.code ??
    'Error';
  const store = describeStore(config);
  const storeMessage = redact(failure.message ?? String(error), config.secret_access_key);

  if (code === 'NoSuchBucket') {
    return new DocqaError(
      'validation_failed',
      `S3 bucket '${config.bucket}' does not exist at ` +
        `${config.endpoint ?? `AWS S3 (${config.region})`}; check the bucket name and ` +
        'endpoint',
      {
        cause: error,
        errors: [{ field: 'bucket', message: `bucket ${config.bucket} does not exist` }],
      },
    );
  }
  if (refusedCredentials.has(code)) {
    return new DocqaError(
      'unavailable',
      `S3 ${store}: the credentials were refused (${code}); check access_key_id and secret_access_key`,
      { cause: error },
    );
  }
  if (code === 'AccessDenied' || failure.$metadata?.httpStatusCode === 403) {
    return new DocqaError(
      'unavailable',
      `S3 ${store}: access denied while ${action}; the credentials need ` +
        'permission to list the bucket and read its objects',
      { cause: error },
    );
  }
  if (code === 'NoSuchKey') {
    return new DocqaError(
      'not_found',
      `S3 ${store}: ${action} failed because the object no longer exists; the next sync removes it`,
      { cause: error },
    );
  }
  if (unreachable.has(code)) {
    return new DocqaError(
      'unavailable',
      `S3 ${store} is unreachable (${code}) while ${action}; check the endpoint and that the store is running`,
      { cause: error },
    );
  }
  return new DocqaError('unavailable', `S3 ${store} failed while ${action}: ${code}: ${storeMessage}`, {
    cause: error,
  });
}

function redact(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join('***');
}
