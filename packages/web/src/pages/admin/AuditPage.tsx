import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { describeError } from '../../api/http';
import { Alert, Loading, PageHeader, Pager, StatusBadge } from '../../components/ui';
import { formatDate } from '../../lib/format';
import { useAsync } from '../../lib/use-async';

const pageSize = 50;
const eventTypes = ['chat.query', 'sync.all', 'config.update', 'license.apply', 'user.create', 'user.delete'];
const emptyFilters = { type: '', user: '', outcome: '', from: '', to: '' };

/** datetime-local values are local times; the API takes ISO 8601. */
const iso = (local: string) => (local ? new Date(local).toISOString() : '');

function Retention() {
  const config = useAsync(() => api.audit.config(), []);
  const [days, setDays] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await api.audit.setConfig(Number(days));
      setMessage(`Entries are kept for ${answer.retention_days} days.`);
      config.reload();
    } catch (reason) {
      setMessage(describeError(reason));
    }
  };
  if (!config.data) return null;
  return (
    <form className="toolbar" onSubmit={save}>
      <label className="inline">
        <span>Keep entries for (days)</span>
        <input
          type="number"
          min={1}
          max={36500}
          required
          placeholder={String(config.data.retention_days)}
          value={days}
          onChange={(e) => setDays(e.target.value)}
        />
      </label>
      <button type="submit" className="small">
        Save retention
      </button>
      {message ? <span role="status">{message}</span> : null}
    </form>
  );
}

export function AuditPage() {
  const [draft, setDraft] = useState(emptyFilters);
  const [filters, setFilters] = useState(emptyFilters);
  const [offset, setOffset] = useState(0);
  const [verify, setVerify] = useState<string | null>(null);
  const entries = useAsync(
    () => api.audit.list({ ...filters, from: iso(filters.from), to: iso(filters.to), limit: pageSize, offset }),
    [filters, offset],
  );
  const set = (name: keyof typeof draft) => (event: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [name]: event.target.value }));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setOffset(0);
    setFilters(draft);
  };
  const check = async () => {
    try {
      const answer = await api.audit.verify();
      setVerify(
        answer.valid
          ? `The hash chain is intact (${answer.checked} entries checked).`
          : `The chain breaks at entry ${answer.broken_at?.seq}: ${answer.broken_at?.reason}`,
      );
    } catch (reason) {
      setVerify(describeError(reason));
    }
  };
  return (
    <>
      <PageHeader title="Audit log">
        <button type="button" className="subtle" onClick={() => void check()}>
          Verify the chain
        </button>
      </PageHeader>
      <Alert kind="info">{verify}</Alert>
      <Retention />
      <form className="filters toolbar" onSubmit={apply} aria-label="Filters">
        <label className="inline">
          <span>Type</span>
          <select value={draft.type} onChange={set('type')}>
            <option value="">Any</option>
            {eventTypes.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <label className="inline">
          <span>User</span>
          <input value={draft.user} onChange={set('user')} placeholder="name or id" />
        </label>
        <label className="inline">
          <span>Outcome</span>
          <select value={draft.outcome} onChange={set('outcome')}>
            <option value="">Any</option>
            <option value="success">Success</option>
            <option value="failure">Failure</option>
          </select>
        </label>
        <label className="inline">
          <span>From</span>
          <input type="datetime-local" value={draft.from} onChange={set('from')} />
        </label>
        <label className="inline">
          <span>Until</span>
          <input type="datetime-local" value={draft.to} onChange={set('to')} />
        </label>
        <button type="submit" className="small">
          Apply
        </button>
        <button
          type="button"
          className="subtle small"
          onClick={() => {
            setDraft(emptyFilters);
            setFilters(emptyFilters);
            setOffset(0);
          }}
        >
          Clear
        </button>
      </form>
      <Alert>{entries.error}</Alert>
      {!entries.data && entries.loading ? <Loading /> : null}
      {entries.data ? (
        <>
          <div className="table-wrap">
            <table className="compact">
              <caption>{entries.data.total} entries, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Event</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Target</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {entries.data.items.map((entry) => (
                  <tr key={entry.id}>
                    <td>{formatDate(entry.occurred_at)}</td>
                    <th scope="row">{entry.type}</th>
                    <td>
                      {entry.actor?.username ?? 'system'}
                      {entry.ip ? <span className="hint block">{entry.ip}</span> : null}
                    </td>
                    <td>{entry.target ?? '—'}</td>
                    <td>
                      <StatusBadge status={entry.outcome} />
                    </td>
                    <td>
                      <code className="details">{JSON.stringify(entry.details)}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager total={entries.data.total} limit={pageSize} offset={offset} onOffset={setOffset} />
        </>
      ) : null}
    </>
  );
}
