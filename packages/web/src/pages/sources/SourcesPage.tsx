import { useMemo, useState } from 'react';
import { api } from '../../api/client';
import { describeError } from '../../api/http';
import type { Source, SourceKind } from '../../api/types';
import { hasRole, useApp } from '../../app-context';
import { AccessPanel } from '../../components/AccessPanel';
import { Alert, ConfirmButton, PageHeader, StatusBadge } from '../../components/ui';
import { formatDate } from '../../lib/format';
import { Link } from '../../lib/router';
import { useAsync } from '../../lib/use-async';
import { JobsPanel } from './JobsPanel';
import { SourceForm } from './SourceForm';

function SourceList({
  kind,
  sources,
  onChanged,
}: {
  kind: SourceKind;
  sources: Source[];
  onChanged(message?: string): void;
}) {
  const { user } = useApp();
  const [editing, setEditing] = useState<Source | 'new' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [access, setAccess] = useState<string | null>(null);
  const act = async (action: () => Promise<unknown>, message?: string) => {
    setError(null);
    try {
      await action();
      onChanged(message);
    } catch (reason) {
      setError(describeError(reason));
    }
  };
  const title = kind === 'connectors' ? 'Connectors' : 'Integrations';
  return (
    <section aria-labelledby={`${kind}-heading`}>
      <div className="section-head">
        <h2 id={`${kind}-heading`}>{title}</h2>
        {hasRole(user, 'admin') && editing === null ? (
          <button type="button" className="small" onClick={() => setEditing('new')}>
            New {kind === 'connectors' ? 'connector' : 'integration'}
          </button>
        ) : null}
      </div>
      <Alert>{error}</Alert>
      {editing !== null ? (
        <SourceForm
          kind={kind}
          source={editing === 'new' ? undefined : editing}
          onCancel={() => setEditing(null)}
          onSave={async (input) => {
            if (editing === 'new') await api.sources.create(kind, input);
            else await api.sources.update(kind, editing.id, input);
            setEditing(null);
            onChanged(`Saved ${input.name}.`);
          }}
        />
      ) : null}
      {sources.length === 0 ? <p className="hint">None yet.</p> : null}
      <ul className="source-list">
        {sources.map((source) => (
          <li key={source.id} className="card">
            <div className="source-head">
              <strong>{source.name}</strong> <span className="badge">{source.type}</span>{' '}
              {source.enabled ? null : <span className="badge badge-cancelled">disabled</span>}
            </div>
            <p className="hint">
              {source.document_count} documents · last sync {formatDate(source.last_sync_at)}{' '}
              {source.last_sync_status ? <StatusBadge status={source.last_sync_status} /> : null}
            </p>
            {source.last_error ? <p className="error-text">{source.last_error}</p> : null}
            <div className="actions">
              {hasRole(user, 'editor') ? (
                <button
                  type="button"
                  className="small"
                  onClick={() =>
                    void act(
                      () => api.sources.sync(kind, source.id),
                      `Started a ${kind === 'connectors' ? 'scan' : 'sync'} of ${source.name}.`,
                    )
                  }
                >
                  {kind === 'connectors' ? 'Scan' : 'Sync'}
                </button>
              ) : null}
              {hasRole(user, 'admin') ? (
                <button type="button" className="subtle small" onClick={() => setEditing(source)}>
                  Edit
                </button>
              ) : null}
              {hasRole(user, 'admin') ? (
                <button
                  type="button"
                  className="subtle small"
                  aria-expanded={access === source.id}
                  aria-label={`Access to ${source.name}`}
                  onClick={() => setAccess(access === source.id ? null : source.id)}
                >
                  Access
                </button>
              ) : null}
              <Link className="button subtle small" to={`/admin/rules?source=${source.id}`}>
                Rules
              </Link>
              <Link className="button subtle small" to={`/admin/analytics?source=${source.id}`}>
                Analytics
              </Link>
              {hasRole(user, 'admin') ? (
                <ConfirmButton
                  label={`Delete ${source.name}`}
                  onConfirm={() => void act(() => api.sources.remove(kind, source.id), `Deleted ${source.name}.`)}
                >
                  Delete
                </ConfirmButton>
              ) : null}
            </div>
            {access === source.id ? (
              <AccessPanel
                type={kind === 'connectors' ? 'connector' : 'integration'}
                id={source.id}
                name={source.name}
                onClose={() => setAccess(null)}
              />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function SourcesPage() {
  const { user } = useApp();
  const connectors = useAsync(() => api.sources.list('connectors'), []);
  const integrations = useAsync(() => api.sources.list('integrations'), []);
  const [message, setMessage] = useState<string | null>(null);
  const [jobsKey, setJobsKey] = useState(0);
  const names = useMemo(
    () =>
      Object.fromEntries(
        [...(connectors.data?.items ?? []), ...(integrations.data?.items ?? [])].map((s) => [s.id, s.name]),
      ),
    [connectors.data, integrations.data],
  );
  const changed = (text?: string) => {
    setMessage(text ?? null);
    connectors.reload();
    integrations.reload();
    setJobsKey((k) => k + 1);
  };
  const syncAll = async () => {
    try {
      const answer = await api.sources.syncAll();
      changed(`Started ${answer.job_ids.length} sync job(s).`);
    } catch (reason) {
      setMessage(describeError(reason));
    }
  };
  return (
    <>
      <PageHeader title="Sources & jobs">
        {hasRole(user, 'editor') ? (
          <button type="button" onClick={() => void syncAll()}>
            Sync all
          </button>
        ) : null}
      </PageHeader>
      <Alert kind="info">{message}</Alert>
      <Alert>{connectors.error ?? integrations.error}</Alert>
      <div className="two-columns">
        <div>
          <SourceList kind="connectors" sources={connectors.data?.items ?? []} onChanged={changed} />
          <SourceList kind="integrations" sources={integrations.data?.items ?? []} onChanged={changed} />
        </div>
        <JobsPanel sourceNames={names} refreshKey={jobsKey} />
      </div>
    </>
  );
}
