import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { describeError } from '../../api/http';
import { Alert, Loading, PageHeader } from '../../components/ui';
import { formatBytes } from '../../lib/format';
import { useAsync } from '../../lib/use-async';

type Value = string | number | boolean;

function SettingInput({ name, value, onChange }: { name: string; value: Value; onChange(value: Value): void }) {
  if (typeof value === 'boolean')
    return (
      <input id={`setting-${name}`} type="checkbox" checked={value} onChange={(e) => onChange(e.target.checked)} />
    );
  if (typeof value === 'number')
    return (
      <input
        id={`setting-${name}`}
        type="number"
        value={value}
        onChange={(e) => onChange(e.target.value === '' ? '' : Number(e.target.value))}
      />
    );
  return <input id={`setting-${name}`} value={value} onChange={(e) => onChange(e.target.value)} />;
}

function SystemInfo() {
  const version = useAsync(() => api.system.version(), []);
  const model = useAsync(() => api.system.modelInfo(), []);
  const hardware = useAsync(() => api.system.hardware(), []);
  const cpu = hardware.data?.cpu as { model?: string; cores?: number } | undefined;
  const memory = hardware.data?.memory as { total_bytes?: number; available_bytes?: number } | undefined;
  return (
    <section className="card" aria-labelledby="system-heading">
      <h2 id="system-heading">This server</h2>
      <dl className="stats">
        <div>
          <dt>Version</dt>
          <dd>{version.data ? `${version.data.version} (${version.data.commit.slice(0, 8)})` : '—'}</dd>
        </div>
        <div>
          <dt>Chat model</dt>
          <dd>{model.data ? `${String(model.data.model)} (${String(model.data.backend)})` : (model.error ?? '—')}</dd>
        </div>
        <div>
          <dt>Context window</dt>
          <dd>{model.data ? `${String(model.data.effective_n_ctx)} tokens` : '—'}</dd>
        </div>
        <div>
          <dt>CPU</dt>
          <dd>{cpu ? `${cpu.model ?? '?'} × ${cpu.cores ?? '?'}` : '—'}</dd>
        </div>
        <div>
          <dt>Memory</dt>
          <dd>{memory ? `${formatBytes(memory.available_bytes)} free of ${formatBytes(memory.total_bytes)}` : '—'}</dd>
        </div>
      </dl>
      {typeof model.data?.note === 'string' ? <p className="hint">{model.data.note}</p> : null}
    </section>
  );
}

/** Runtime settings (the spec's seed variables): changed here, in effect without a restart. */
export function SettingsPage() {
  const settings = useAsync(() => api.settings.get(), []);
  const [changes, setChanges] = useState<Record<string, Value>>({});
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    try {
      settings.set(await api.settings.update(changes));
      setMessage({ kind: 'success', text: `Saved ${Object.keys(changes).join(', ')}.` });
      setChanges({});
    } catch (reason) {
      setMessage({ kind: 'error', text: describeError(reason) });
    }
  };
  const entries = Object.entries(settings.data?.settings ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return (
    <>
      <PageHeader title="Settings" />
      <SystemInfo />
      <Alert>{settings.error}</Alert>
      {!settings.data && settings.loading ? <Loading /> : null}
      {message ? <Alert kind={message.kind}>{message.text}</Alert> : null}
      {settings.data ? (
        <form className="card stack" onSubmit={save} aria-labelledby="runtime-heading">
          <h2 id="runtime-heading">Runtime settings</h2>
          <p className="hint">Applied at once on every replica; one invalid value changes nothing.</p>
          <div className="settings-grid">
            {entries.map(([name, stored]) => {
              const value = name in changes ? changes[name]! : stored;
              return (
                <div key={name} className={`setting${name in changes ? ' changed' : ''}`}>
                  <label htmlFor={`setting-${name}`}>{name}</label>
                  <SettingInput
                    name={name}
                    value={value}
                    onChange={(next) => setChanges((c) => ({ ...c, [name]: next }))}
                  />
                </div>
              );
            })}
          </div>
          <p className="hint">
            Derived:{' '}
            {Object.entries(settings.data.derived)
              .map(([k, v]) => `${k} = ${v}`)
              .join(', ')}
          </p>
          <div className="actions">
            <button type="submit" disabled={Object.keys(changes).length === 0}>
              Save changes
            </button>
            <button
              type="button"
              className="subtle"
              disabled={Object.keys(changes).length === 0}
              onClick={() => setChanges({})}
            >
              Discard
            </button>
          </div>
        </form>
      ) : null}
    </>
  );
}
