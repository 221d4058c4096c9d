import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { describeError } from '../api/http';
import { session } from '../api/session';
import { useApp } from '../app-context';
import { Alert, Field, PageHeader } from '../components/ui';
import { ApiKeysSection } from './ApiKeysSection';

type Message = { kind: 'success' | 'error'; text: string } | null;

function Totp({ enabled, onChanged }: { enabled: boolean; onChanged(): void }) {
  const [setup, setSetup] = useState<{ secret: string; otpauth_uri: string } | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [message, setMessage] = useState<Message>(null);
  const run = async (action: () => Promise<void>) => {
    setMessage(null);
    try {
      await action();
    } catch (reason) {
      setMessage({ kind: 'error', text: describeError(reason) });
    }
  };
  return (
    <section className="card stack" aria-labelledby="totp-heading">
      <h2 id="totp-heading">Two-step verification (TOTP)</h2>
      {message ? <Alert kind={message.kind}>{message.text}</Alert> : null}
      {recovery ? (
        <div className="stack">
          <Alert kind="success">
            Two-step verification is on. Keep these recovery codes somewhere safe; each works once and they are shown
            only now.
          </Alert>
          <ul className="recovery-codes">
            {recovery.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : enabled ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              await api.auth.totpDisable(code ? { code } : { password });
              setCode('');
              setPassword('');
              onChanged();
              setMessage({ kind: 'success', text: 'Two-step verification is off.' });
            });
          }}
        >
          <p>On. To turn it off, enter a current code or your password.</p>
          <div className="grid-2">
            <Field label="Code">
              {(id) => (
                <input id={id} autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />
              )}
            </Field>
            <Field label="Password">
              {(id) => (
                <input
                  id={id}
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
              )}
            </Field>
          </div>
          <div className="actions">
            <button type="submit" className="danger">
              Turn off
            </button>
          </div>
        </form>
      ) : setup ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              setRecovery((await api.auth.totpEnable(code.trim())).recovery_codes);
              setCode('');
              onChanged();
            });
          }}
        >
          <p>
            Add this key to your authenticator app (or open the link on the phone that has it), then enter the first
            code it shows.
          </p>
          <p>
            <code className="secret">{setup.secret}</code> · <a href={setup.otpauth_uri}>otpauth link</a>
          </p>
          <Field label="First code">
            {(id) => (
              <input
                id={id}
                autoComplete="one-time-code"
                inputMode="numeric"
                required
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            )}
          </Field>
          <div className="actions">
            <button type="submit">Turn on</button>
          </div>
        </form>
      ) : (
        <div className="actions">
          <p>Off. Password sign-ins can ask for a code from an authenticator app as well.</p>
          <button type="button" onClick={() => void run(async () => setSetup(await api.auth.totpSetup()))}>
            Set up
          </button>
        </div>
      )}
    </section>
  );
}

export function AccountPage() {
  const { user, reloadUser } = useApp();
  const [email, setEmail] = useState(user?.email ?? '');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [message, setMessage] = useState<Message>(null);
  const run = async (action: () => Promise<string>) => {
    setMessage(null);
    try {
      setMessage({ kind: 'success', text: await action() });
    } catch (reason) {
      setMessage({ kind: 'error', text: describeError(reason) });
    }
  };
  const saveEmail = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.auth.setEmail(email.trim() || null);
      await reloadUser();
      return 'Saved your email address.';
    });
  };
  const changePassword = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      session.set(await api.auth.changePassword(current, next));
      setCurrent('');
      setNext('');
      return 'Password changed. Other sessions were signed out.';
    });
  };
  if (!user) return null;
  return (
    <>
      <PageHeader title="Your account" />
      <p>
        Signed in as <strong>{user.username}</strong> ({user.role})
        {user.sso_provider ? ` through ${user.sso_provider}` : ''}.
      </p>
      {message ? <Alert kind={message.kind}>{message.text}</Alert> : null}
      <form className="card stack" onSubmit={saveEmail} aria-labelledby="email-heading">
        <h2 id="email-heading">Email</h2>
        <Field label="Email" hint="Used for password reset.">
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          )}
        </Field>
        <div className="actions">
          <button type="submit">Save email</button>
        </div>
      </form>
      {user.sso_provider ? null : (
        <>
          <form className="card stack" onSubmit={changePassword} aria-labelledby="password-heading">
            <h2 id="password-heading">Password</h2>
            <div className="grid-2">
              <Field label="Current password">
                {(id) => (
                  <input
                    id={id}
                    type="password"
                    autoComplete="current-password"
                    required
                    value={current}
                    onChange={(e) => setCurrent(e.target.value)}
                  />
                )}
              </Field>
              <Field label="New password" hint="10 to 256 characters.">
                {(id, hint) => (
                  <input
                    id={id}
                    aria-describedby={hint}
                    type="password"
                    autoComplete="new-password"
                    minLength={10}
                    required
                    value={next}
                    onChange={(e) => setNext(e.target.value)}
                  />
                )}
              </Field>
            </div>
            <div className="actions">
              <button type="submit">Change password</button>
            </div>
          </form>
          <Totp enabled={user.mfa_enabled} onChanged={() => void reloadUser()} />
        </>
      )}
      <ApiKeysSection role={user.role} />
      <section className="card stack" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Sessions</h2>
        <div className="actions">
          <p>Sign out on every device, this one included.</p>
          <button
            type="button"
            className="danger"
            onClick={() => void api.auth.logoutAll().finally(() => session.clear())}
          >
            Sign out everywhere
          </button>
        </div>
      </section>
    </>
  );
}
