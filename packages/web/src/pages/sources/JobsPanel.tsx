import { useState } from 'react';
import { api, pageSize } from '../../api/client';
import { describeError } from '../../api/http';
import type { Job } from '../../api/types';
import { hasRole, useApp } from '../../app-context';
import { Alert, Pager, ProgressBar, StatusBadge } from '../../components/ui';
import { formatDate, formatDuration } from '../../lib/format';
import { useAsync } from '../../lib/use-async';

const active = (job: Job) => job.status === 'queued' || job.status === 'running';

/** Background jobs, newest first, refreshed every two seconds while any is queued or running. */
export function JobsPanel({ sourceNames, refreshKey }: { sourceNames: Record<string, string>; refreshKey?: unknown }) {
  const { user } = useApp();
  const [kind, setKind] = useState('');
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [anyActive, setAnyActive] = useState(true);
  const [offset, setOffset] = useState(0);
  const jobs = useAsync(
    async () => {
      const page = await api.jobs.list({ kind, status, offset });
      setAnyActive(page.items.some(active));
      return page;
    },
    [kind, status, offset, refreshKey],
    { pollMs: 2000, poll: anyActive },
  );

  const cancel = async (job: Job) => {
    setError(null);
    try {
      await api.jobs.cancel(job.id);
    } catch (reason) {
      setError(describeError(reason));
    }
    setAnyActive(true);
    jobs.reload();
  };

  return (
    <section className="jobs" aria-labelledby="jobs-heading">
      <h2 id="jobs-heading">Jobs</h2>
      <div className="toolbar">
        <label className="inline">
          <span>Kind</span>
          <select
            value={kind}
            onChange={(e) => {
              setKind(e.target.value);
              setOffset(0);
            }}
          >
            <option value="">Any</option>
            {['scan', 'sync', 'ingest', 'rebuild', 'metadata_refresh', 'retention_sweep', 'model_pull'].map((k) => (
              <option key={k} value={k}>
                {k.replace('_', ' ')}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          <span>Status</span>
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setOffset(0);
            }}
          >
            <option value="">Any</option>
            {['queued', 'running', 'succeeded', 'failed', 'cancelled'].map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="subtle small"
          onClick={() => {
            setAnyActive(true);
            jobs.reload();
          }}
        >
          Refresh
        </button>
      </div>
      <Alert>{jobs.error ?? error}</Alert>
      {jobs.data && jobs.data.items.length === 0 ? <p className="hint">No jobs.</p> : null}
      <ul className="job-list">
        {(jobs.data?.items ?? []).map((job) => {
          const source = job.source_id ? (sourceNames[job.source_id] ?? job.source_id.slice(0, 8)) : null;
          const label = `${job.kind.replace('_', ' ')}${source ? ` of ${source}` : ''}`;
          return (
            <li key={job.id} className="job" data-job-id={job.id} data-status={job.status}>
              <div className="job-head">
                <strong>{label}</strong>
                <StatusBadge status={job.status} />
                <span className="hint">{formatDate(job.started_at ?? job.created_at)}</span>
                {active(job) && hasRole(user, 'editor') ? (
                  <button
                    type="button"
                    className="danger subtle small"
                    onClick={() => void cancel(job)}
                    aria-label={`Cancel ${label}`}
                  >
                    Cancel
                  </button>
                ) : null}
              </div>
              {active(job) ? (
                <>
                  <ProgressBar value={job.progress.done} max={job.progress.total} label={`Progress of ${label}`} />
                  <p className="hint">
                    {job.progress.done}
                    {job.progress.total !== null ? ` of ${job.progress.total}` : ''} done
                    {job.eta_seconds !== null ? ` · about ${formatDuration(job.eta_seconds)} left` : ''}
                  </p>
                </>
              ) : (
                <p className="hint">
                  {job.progress.done}
                  {job.progress.total !== null ? ` of ${job.progress.total}` : ''} done
                  {job.finished_at ? ` · finished ${formatDate(job.finished_at)}` : ''}
                </p>
              )}
              {job.error ? <p className="error-text">{job.error}</p> : null}
            </li>
          );
        })}
      </ul>
      {jobs.data ? (
        <Pager
          total={jobs.data.total}
          limit={pageSize}
          offset={jobs.data.offset}
          onOffset={setOffset}
          label="Pages of jobs"
        />
      ) : null}
    </section>
  );
}
