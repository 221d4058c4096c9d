import { useState, type FormEvent } from 'react';
import { api, pageSize } from '../../api/client';
import { describeError } from '../../api/http';
import type { Schedule } from '../../api/types';
import { Alert, ConfirmButton, Field, PageHeader, Pager } from '../../components/ui';
import { SourcePicker, useSources } from '../../components/SourcePicker';
import { explainCron } from '../../lib/cron';
import { formatDate } from '../../lib/format';
import { useAsync } from '../../lib/use-async';

/** "Every day at 02:30 UTC" and the next runs, or what is wrong with the expression. */
export function CronReading({ cron, count = 3 }: { cron: string; count?: number }) {
  const result = explainCron(cron, count);
  if ('error' in result) return <p className="error-text">{result.error}</p>;
  return (
    <div className="cron-reading">
      <p>{result.reading}</p>
      <p className="hint">Next: {result.next.map((date) => formatDate(date.toISOString())).join(' · ')}</p>
    </div>
  );
}

function ScheduleRow({
  schedule,
  sourceName,
  onChanged,
}: {
  schedule: Schedule;
  sourceName: string;
  onChanged(error?: string): void;
}) {
  const [cron, setCron] = useState(schedule.cron);
  const act = async (action: () => Promise<unknown>) => {
    try {
      await action();
      onChanged();
    } catch (reason) {
      onChanged(describeError(reason));
    }
  };
  return (
    <li className="card stack">
      <div className="source-head">
        <strong>{sourceName}</strong> <span className="badge">{schedule.source_type}</span>{' '}
        {schedule.enabled ? null : <span className="badge badge-cancelled">disabled</span>}
      </div>
      <div className="toolbar">
        <label className="inline">
          <span>Cron (UTC)</span>
          <input
            className="code"
            value={cron}
            onChange={(e) => setCron(e.target.value)}
            aria-label={`Cron expression of ${sourceName}`}
          />
        </label>
        {cron !== schedule.cron ? (
          <button
            type="button"
            className="small"
            onClick={() => void act(() => api.schedules.update(schedule.id, { cron }))}
          >
            Save
          </button>
        ) : null}
        <label className="checkbox">
          <input
            type="checkbox"
            checked={schedule.enabled}
            onChange={(e) => void act(() => api.schedules.update(schedule.id, { enabled: e.target.checked }))}
          />{' '}
          Enabled
        </label>
        <ConfirmButton
          label={`Delete the schedule of ${sourceName}`}
          onConfirm={() => void act(() => api.schedules.remove(schedule.id))}
        >
          Delete
        </ConfirmButton>
      </div>
      <CronReading cron={cron} />
      <p className="hint">
        Last run {formatDate(schedule.last_run)} · next run (server){' '}
        {schedule.enabled ? formatDate(schedule.next_run) : '— (disabled)'}
      </p>
    </li>
  );
}

export function SchedulesPage() {
  const [offset, setOffset] = useState(0);
  const schedules = useAsync(() => api.schedules.list({ offset }), [offset]);
  const sources = useSources(false);
  const [sourceId, setSourceId] = useState('');
  const [cron, setCron] = useState('0 2 * * *');
  const [error, setError] = useState<string | null>(null);
  const names = Object.fromEntries((sources.data ?? []).map((s) => [s.id, s.name]));
  const create = async (event: FormEvent) => {
    event.preventDefault();
    const source = sources.data?.find((s) => s.id === sourceId);
    if (!source || source.type === 'upload') return;
    setError(null);
    try {
      await api.schedules.create({ source_type: source.type, source_id: source.id, cron, enabled: true });
      schedules.reload();
    } catch (reason) {
      setError(describeError(reason));
    }
  };
  return (
    <>
      <PageHeader title="Schedules" />
      <form className="card stack" onSubmit={create} aria-labelledby="new-schedule-heading">
        <h2 id="new-schedule-heading">New schedule</h2>
        <div className="toolbar">
          <SourcePicker sources={sources.data ?? []} value={sourceId} onChange={setSourceId} label="Sync" />
          <Field label="Cron expression (UTC)" hint="minute hour day-of-month month day-of-week, or @daily, @hourly…">
            {(id, hint) => (
              <input
                id={id}
                aria-describedby={hint}
                className="code"
                required
                value={cron}
                onChange={(e) => setCron(e.target.value)}
              />
            )}
          </Field>
        </div>
        <CronReading cron={cron} count={5} />
        <div className="actions">
          <button type="submit" disabled={!sourceId}>
            Create schedule
          </button>
        </div>
      </form>
      <Alert>{schedules.error ?? error}</Alert>
      {schedules.data && schedules.data.items.length === 0 ? <p className="hint">No schedules yet.</p> : null}
      <ul className="source-list">
        {(schedules.data?.items ?? []).map((schedule) => (
          <ScheduleRow
            key={`${schedule.id}-${schedule.cron}-${schedule.enabled}`}
            schedule={schedule}
            sourceName={names[schedule.source_id] ?? schedule.source_id}
            onChanged={(e) => {
              setError(e ?? null);
              schedules.reload();
            }}
          />
        ))}
      </ul>
      {schedules.data ? (
        <Pager
          total={schedules.data.total}
          limit={pageSize}
          offset={schedules.data.offset}
          onOffset={setOffset}
          label="Pages of schedules"
        />
      ) : null}
    </>
  );
}
