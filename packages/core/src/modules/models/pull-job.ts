import type { GuardedFetch, JobContext, Logger, QueueOptions } from '@docqa/plugin-api';
import type { ModelPullJobData } from './contract.js';
import type { ModelStore } from './store.js';

/**
 * No pg-boss retry: the download retries dropped connections itself, resuming each time, and a
 * failure that survives that (a wrong checksum, a 404) would only fail again. Expiry is generous:
 * gigabytes over a slow line take hours. The heartbeat carries a cancel from another replica.
 */
export const modelPullQueueOptions: QueueOptions = { retryLimit: 0, expireInSeconds: 12 * 3600, heartbeatSeconds: 30 };

/** Progress is in KiB: job progress is a 32-bit count, and a model can be many GiB. */
const kib = (bytes: number) => Math.floor(bytes / 1024);

/**
 * One pull: downloads into MODELS_DIR of the replica that runs it, with progress for GET /api/jobs
 * (its ETA comes from it). A cancel aborts the download and keeps the `.part`, so the next pull of
 * the same model resumes.
 */
export async function runModelPull(
  store: ModelStore,
  logger: Logger,
  job: JobContext<ModelPullJobData>,
  // The server's outbound policy: a catalogue URL on an internal address needs OUTBOUND_ALLOW.
  fetch: GuardedFetch,
) {
  const entry = store.entry(job.data.name);
  let reported = 0;
  // Progress is a database write: at most twice a second, and never one at a time behind another.
  let writing: Promise<void> | null = null;
  const { model, download } = await store.pull(entry.name, {
    signal: job.signal,
    fetch,
    onProgress: ({ receivedBytes, totalBytes }) => {
      const now = Date.now();
      if (writing || now - reported < 500) return;
      reported = now;
      writing = job
        .progress(kib(receivedBytes), totalBytes === null ? undefined : kib(totalBytes))
        .catch((error: unknown) => logger.debug({ err: error }, 'recording pull progress failed'))
        .finally(() => {
          writing = null;
        });
    },
  });
  // Set in the progress callback, which TypeScript's narrowing does not see.
  await (writing as Promise<void> | null);
  await job.progress(kib(download.bytes), kib(download.bytes));
  logger.info(
    {
      model: model.name,
      bytes: download.bytes,
      resumed_from: download.resumedFromBytes,
      requested_by: job.data.requestedBy,
    },
    `pulled model ${model.name}`,
  );
  return {
    name: model.name,
    file: model.gguf.file,
    purpose: model.purpose,
    size_bytes: download.bytes,
    sha256: download.sha256,
    sha256_checked: Boolean(entry.sha256),
    resumed_from_bytes: download.resumedFromBytes,
    attempts: download.attempts,
  };
}
