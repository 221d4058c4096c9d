import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { describeError } from '../../api/http';
import type { OidcProvider, OidcProviderInput } from '../../api/types';
import { Alert, ConfirmButton, Field, PageHeader } from '../../components/ui';
import { useAsync } from '../../lib/use-async';

function ProviderForm({ provider, onDone, onCancel }: { provider?: OidcProvider; onDone(): void; onCancel(): void }) {
  const [form, setForm] = useState({
    name: provider?.name ?? '',
    display_name: provider?.display_name ?? '',
    discovery_url: provider?.discovery_url ?? '',
    client_id: provider?.client_id ?? '',
    client_secret: '',
    redirect_uri: provider?.redirect_uri ?? '',
    scopes: provider?.scopes ?? 'openid email profile',
    admin_groups: (provider?.admin_groups ?? []).join(', '),
    groups_claim: provider?.groups_claim ?? 'groups',
    enabled: provider?.enabled ?? true,
  });
  const [error, setError] = useState<string | null>(null);
  const set = (name: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [name]: event.target.value }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const body: OidcProviderInput = {
      display_name: form.display_name,
      discovery_url: form.discovery_url,
      client_id: form.client_id,
      scopes: form.scopes,
      admin_groups: form.admin_groups
        .split(',')
        .map((g) => g.trim())
        .filter(Boolean),
      groups_claim: form.groups_claim,
      enabled: form.enabled,
      ...(form.redirect_uri ? { redirect_uri: form.redirect_uri } : {}),
      // Left empty: a new provider has none, an existing one keeps its secret.
      ...(form.client_secret ? { client_secret: form.client_secret } : {}),
    };
    try {
      if (provider) await api.oidc.update(provider.id, body);
      else await api.oidc.create({ ...body, name: form.name });
      onDone();
    } catch (reason) {
      setError(describeError(reason));
    }
  };
  return (
    <form className="card stack" onSubmit={submit} aria-label={provider ? `Edit ${provider.name}` : 'New provider'}>
      <h2>{provider ? `Edit ${provider.display_name}` : 'New provider'}</h2>
      <Alert>{error}</Alert>
      <div className="grid-2">
        <Field label="Name" hint="Lower-case letters, digits and -; used in the URLs and cannot change.">
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              required
              pattern="[a-z0-9][a-z0-9\-]{0,31}"
              disabled={!!provider}
              value={form.name}
              onChange={set('name')}
            />
          )}
        </Field>
        <Field label="Display name">
          {(id) => <input id={id} required value={form.display_name} onChange={set('display_name')} />}
        </Field>
        <Field label="Discovery URL" hint="The issuer or its .well-known/openid-configuration URL.">
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              type="url"
              required
              value={form.discovery_url}
              onChange={set('discovery_url')}
            />
          )}
        </Field>
        <Field label="Client ID">
          {(id) => <input id={id} required value={form.client_id} onChange={set('client_id')} />}
        </Field>
        <Field
          label="Client secret"
          hint={
            provider?.client_secret
              ? 'Set; leave empty to keep it.'
              : 'Optional: without one, DocQA is a public client using PKCE.'
          }
        >
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              type="password"
              autoComplete="off"
              value={form.client_secret}
              onChange={set('client_secret')}
            />
          )}
        </Field>
        <Field
          label="Redirect URI"
          hint="Default: PUBLIC_URL/api/auth/oidc/{name}/callback. Register exactly this at the provider."
        >
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              type="url"
              value={form.redirect_uri}
              onChange={set('redirect_uri')}
            />
          )}
        </Field>
        <Field label="Scopes">{(id) => <input id={id} required value={form.scopes} onChange={set('scopes')} />}</Field>
        <Field label="Admin groups" hint="Comma-separated; members become admins at sign-in.">
          {(id, hint) => (
            <input id={id} aria-describedby={hint} value={form.admin_groups} onChange={set('admin_groups')} />
          )}
        </Field>
        <Field label="Groups claim">
          {(id) => <input id={id} value={form.groups_claim} onChange={set('groups_claim')} />}
        </Field>
      </div>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={form.enabled}
          onChange={(e) => setForm((f) => ({ ...f, enabled: e.target.checked }))}
        />{' '}
        Enabled
      </label>
      <div className="actions">
        <button type="submit">{provider ? 'Save' : 'Add provider'}</button>
        <button type="button" className="subtle" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function OidcPage() {
  const providers = useAsync(() => api.oidc.list(), []);
  const [editing, setEditing] = useState<OidcProvider | 'new' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const done = () => {
    setEditing(null);
    providers.reload();
  };
  return (
    <>
      <PageHeader title="Single sign-on">
        {editing === null ? (
          <button type="button" onClick={() => setEditing('new')}>
            Add provider
          </button>
        ) : null}
      </PageHeader>
      <p className="hint">
        OpenID Connect providers offered on the sign-in page. While none is stored here, the OIDC_* variables apply.
      </p>
      {editing !== null ? (
        <ProviderForm
          key={editing === 'new' ? 'new' : editing.id}
          provider={editing === 'new' ? undefined : editing}
          onDone={done}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      <Alert>{providers.error ?? error}</Alert>
      {providers.data && providers.data.items.length === 0 ? <p className="hint">No provider is stored.</p> : null}
      <ul className="source-list">
        {(providers.data?.items ?? []).map((provider) => (
          <li key={provider.id} className="card">
            <div className="source-head">
              <strong>{provider.display_name}</strong> <span className="badge">{provider.name}</span>{' '}
              {provider.enabled ? null : <span className="badge badge-cancelled">disabled</span>}
            </div>
            <p className="hint">
              {provider.discovery_url} · client {provider.client_id} ·{' '}
              {provider.client_secret ? 'confidential' : 'public'} client
            </p>
            <div className="actions">
              <button type="button" className="subtle small" onClick={() => setEditing(provider)}>
                Edit
              </button>
              <ConfirmButton
                label={`Remove ${provider.name}`}
                onConfirm={() =>
                  void api.oidc
                    .remove(provider.id)
                    .then(providers.reload, (reason: unknown) => setError(describeError(reason)))
                }
              >
                Remove
              </ConfirmButton>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
