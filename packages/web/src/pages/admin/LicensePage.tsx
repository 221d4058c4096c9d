import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { describeError } from '../../api/http';
import type { License } from '../../api/types';
import { hasRole, useApp } from '../../app-context';
import { Alert, Field, Loading, PageHeader, ProgressBar } from '../../components/ui';
import { formatBytes, formatDate } from '../../lib/format';
import { useAsync } from '../../lib/use-async';

function Usage({
  label,
  used,
  limit,
  format,
}: {
  label: string;
  used: number | undefined;
  limit: number | null | undefined;
  format(n: number): string;
}) {
  if (used === undefined) return null;
  return (
    <div className="usage">
      <p>
        <strong>{label}:</strong> {format(used)}{' '}
        {limit === null || limit === undefined ? '(no limit)' : `of ${format(limit)}`}
      </p>
      {typeof limit === 'number' ? <ProgressBar value={used} max={limit} label={`${label} used`} /> : null}
    </div>
  );
}

/** GET /api/license answers the plan and usage; fields are read defensively. */
export function LicensePage() {
  const { user } = useApp();
  const license = useAsync(() => api.license.get(), []);
  const [key, setKey] = useState('');
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const apply = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    try {
      const answer = await api.license.apply(key.trim());
      setMessage({
        kind: 'success',
        text: `Applied: plan ${answer.plan}${answer.licensee ? ` for ${answer.licensee}` : ''}.`,
      });
      setKey('');
      license.reload();
    } catch (reason) {
      setMessage({ kind: 'error', text: describeError(reason) });
    }
  };
  const data: Partial<License> | undefined = license.data;
  return (
    <>
      <PageHeader title="License" />
      <Alert>{license.error}</Alert>
      {!data && license.loading ? <Loading /> : null}
      {data ? (
        <section className="card stack" aria-label="Current license">
          <p className="plan">
            Plan <strong>{data.plan ?? 'unknown'}</strong>
            {data.lapsed ? <span className="badge badge-failed">lapsed</span> : null}
          </p>
          <dl className="stats">
            <div>
              <dt>Licensee</dt>
              <dd>{data.licensee ?? '—'}</dd>
            </div>
            <div>
              <dt>License id</dt>
              <dd>{data.license_id ?? '—'}</dd>
            </div>
            <div>
              <dt>Expires</dt>
              <dd>{formatDate(data.expires_at)}</dd>
            </div>
            <div>
              <dt>Largest file</dt>
              <dd>{data.limits?.file_size_bytes === null ? 'no limit' : formatBytes(data.limits?.file_size_bytes)}</dd>
            </div>
          </dl>
          <Usage label="Documents" used={data.usage?.documents} limit={data.limits?.documents} format={String} />
          <Usage
            label="Storage"
            used={data.usage?.storage_bytes}
            limit={data.limits?.storage_bytes}
            format={formatBytes}
          />
        </section>
      ) : null}
      {hasRole(user, 'admin') ? (
        <form className="card stack" onSubmit={apply} aria-labelledby="apply-heading">
          <h2 id="apply-heading">Apply a license key</h2>
          {message ? <Alert kind={message.kind}>{message.text}</Alert> : null}
          <Field label="License key" hint="The contents of the license key file. Applied at once, without a restart.">
            {(id, hint) => (
              <textarea
                id={id}
                aria-describedby={hint}
                className="code"
                rows={4}
                required
                value={key}
                onChange={(e) => setKey(e.target.value)}
              />
            )}
          </Field>
          <div className="actions">
            <button type="submit">Apply</button>
          </div>
        </form>
      ) : null}
    </>
  );
}
