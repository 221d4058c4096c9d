import { useEffect, useState } from 'react';
import { api } from '../../../api/client';
import { describeError } from '../../../api/http';
import type { Job } from '../../../api/types';
import { ProgressBar } from '../../../components/ui';
import { formatDuration } from '../../../lib/format';

const finished = (job: Job) => !['queued', 'running'].includes(job.status);

/**
 * A pull job followed by polling GET /api/jobs/{id} (progress in KiB, an ETA) until it finishes;
 * `onFinished` gets the last state so the page can reload the installed models.
 */
export function PullProgress({ name, jobId, onFinished }: { name: string; jobId: string; onFinished(job: Job): void }) {
  const [job, setJob] = useState<Job | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const next = await api.jobs.get(jobId);
        if (!live) return;
        setJob(next);
        setError(null);
        if (finished(next)) return onFinished(next);
      } catch (reason) {
        if (live) setError(describeError(reason));
      }
      if (live) timer = setTimeout(() => void poll(), 500);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // onFinished is the page's; a new one must not restart the polling.
  }, [jobId]);

  const label = `Pull of ${name}`;
  const progress = job?.progress;
  return (
    <div className="stack" data-job-id={jobId}>
      <ProgressBar value={progress?.done ?? 0} max={progress?.total ?? null} label={label} />
      <p className="hint">
        {progress
          ? `${Math.round(progress.done)}${progress.total !== null ? ` of ${Math.round(progress.total)}` : ''} KiB`
          : 'Starting…'}
        {job?.eta_seconds != null ? ` · about ${formatDuration(job.eta_seconds)} left` : ''}
      </p>
      {error ? <p className="error-text">{error}</p> : null}
      {job && !finished(job) ? (
        <div className="actions">
          <button
            type="button"
            className="danger subtle small"
            aria-label={`Cancel the pull of ${name}`}
            onClick={() =>
              void api.jobs.cancel(jobId).then(
                (answer) => setJob(answer),
                (reason: unknown) => setError(describeError(reason)),
              )
            }
          >
            Cancel
          </button>
        </div>
      ) : null}
    </div>
  );
}
