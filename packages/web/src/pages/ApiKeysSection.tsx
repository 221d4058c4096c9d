import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { describeError } from '../api/http';
import type { KeyScope, Role } from '../api/types';
import { ApiKeyTable } from '../components/ApiKeyTable';
import { Alert, Field, Loading } from '../components/ui';
import { useAsync } from '../lib/use-async';

/** The scopes a role may give its keys, as the server allows them. */
const scopesOf: Record<Role, KeyScope[]> = {
  viewer: ['read'],
  editor: ['read', 'write'],
  admin: ['read', 'write', 'admin'],
};
const scopeHints: Record<KeyScope, string> = {
  read: 'search, chat, documents',
  write: 'upload, delete, sources',
  admin: 'administration',
};

/** Personal API keys: create one (its secret shown once), list them, revoke one. */
export function ApiKeysSection({ role }: { role: Role }) {
  const keys = useAsync(() => api.auth.apiKeys(), []);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<KeyScope[]>(['read']);
  const [days, setDays] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const run = async (action: () => Promise<void>) => {
    setMessage(null);
    try {
      await action();
    } catch (reason) {
      setMessage({ kind: 'error', text: describeError(reason) });
    }
  };
  const create = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const expiresInDays = days ? Number(days) : null;
      const key = await api.auth.createApiKey({ name: name.trim(), scopes, expires_in_days: expiresInDays });
      setCreated(key.key);
      setName('');
      setDays('');
      keys.reload();
    });
  };
  const toggle = (scope: KeyScope, on: boolean) =>
    setScopes((current) => (on ? [...current, scope] : current.filter((s) => s !== scope)));
  const revoke = (id: string, keyName: string) =>
    void run(async () => {
      await api.auth.revokeApiKey(id);
      setMessage({ kind: 'success', text: `Revoked ${keyName}.` });
      keys.reload();
    });
  return (
    <section className="card stack" aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading">API keys</h2>
      <p>
        Scripts and tools (an OpenAI-compatible client at <code>/api/openai/v1</code>, for one) send a key as{' '}
        <code>Authorization: Bearer</code>. A key acts as you, never beyond your role or its scopes.
      </p>
      {message ? <Alert kind={message.kind}>{message.text}</Alert> : null}
      {created ? (
        <div className="stack">
          <Alert kind="success">Copy this key now: it is shown only once.</Alert>
          <p>
            <code className="secret new-api-key">{created}</code>
          </p>
          <div className="actions">
            <button type="button" className="subtle small" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      ) : null}
      <form className="stack" onSubmit={create}>
        <div className="grid-2">
          <Field label="Key name">
            {(id) => <input id={id} required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Field label="Expires after (days)" hint="Empty: never.">
            {(id, hint) => (
              <input
                id={id}
                aria-describedby={hint}
                type="number"
                min={1}
                max={3650}
                value={days}
                onChange={(e) => setDays(e.target.value)}
              />
            )}
          </Field>
        </div>
        <fieldset className="scopes">
          <legend>Scopes</legend>
          {scopesOf[role].map((scope) => (
            <label key={scope} className="checkbox">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) => toggle(scope, e.target.checked)}
              />
              {scope} <span className="hint">({scopeHints[scope]})</span>
            </label>
          ))}
        </fieldset>
        <div className="actions">
          <button type="submit" disabled={scopes.length === 0}>
            Create key
          </button>
        </div>
      </form>
      <Alert>{keys.error}</Alert>
      {!keys.data ? (
        <Loading />
      ) : keys.data.items.length === 0 ? (
        <p>No keys yet.</p>
      ) : (
        <ApiKeyTable
          keys={keys.data.items}
          caption="Your keys"
          revokeLabel={(key) => `Revoke ${key.name}`}
          onRevoke={(key) => void revoke(key.id, key.name)}
        />
      )}
    </section>
  );
}
