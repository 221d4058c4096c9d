import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { S3SourceConfig } from './config.js';
import { describeS3Failure } from './s3-client.js';

/** What the listing tells about one object: enough to detect a change without reading it. */
export interface ListedObject {
  key: string;
  /** As the store sends it, quotes removed. */
  etag: string;
  lastModified: Date;
  size: number;
}

/**
 * Lists every object under the configured prefix, one ListObjectsV2 page at a time.
 *
 * A generator, so that memory holds one page (at most 1,000 keys): the next page is requested only
 * once the consumer has taken every object of the current one.
 */
export async function* listBucket(
  client: S3Client,
  config: S3SourceConfig,
  signal: AbortSignal,
): AsyncGenerator<ListedObject> {
  let continuationToken: string | undefined;
  do {
    signal.throwIfAborted();
    let page;
    try {
      page = await client.send(
        new ListObjectsV2Command({
          Bucket: config.bucket,
          Prefix: config.prefix,
          MaxKeys: config.page_size,
          ContinuationToken: continuationToken,
        }),
        { abortSignal: signal },
      );
    } catch (error) {
      // The SDK reports an abort as its own AbortError; callers expect the signal's reason.
      if (signal.aborted) throw signal.reason;
      throw describeS3Failure(error, config, 'listing objects');
    }
    for (const entry of page.Contents ?? []) {
      if (entry.Key === undefined) continue;
      yield {
        key: entry.Key,
        etag: (entry.ETag ?? '').replace(/"/g, ''),
        lastModified: entry.LastModified ?? new Date(0),
        size: entry.Size ?? 0,
      };
    }
    // A store that says "truncated" without a token would loop forever on the first page.
    continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (continuationToken !== undefined);
}
