import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { describeError } from '../../api/http';
import { Alert, Field } from '../../components/ui';
import { Link, useLocation } from '../../lib/router';
import { AuthFrame } from './AuthFrame';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setSent((await api.auth.forgotPassword(email)).detail);
    } catch (reason) {
      setError(describeError(reason));
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthFrame title="Forgot your password?">
      {sent ? (
        <Alert kind="success">{sent}</Alert>
      ) : (
        <>
          <p>Enter the email address of your account; we send a link to set a new password.</p>
          <Alert>{error}</Alert>
          <form onSubmit={submit} className="stack">
            <Field label="Email">
              {(id) => (
                <input
                  id={id}
                  type="email"
                  autoComplete="email"
                  required
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                />
              )}
            </Field>
            <button type="submit" disabled={busy}>
              Send the link
            </button>
          </form>
        </>
      )}
      <p>
        <Link to="/login">Back to sign-in</Link>
      </p>
    </AuthFrame>
  );
}

/** The page the reset email links to: PUBLIC_URL/reset-password?token=… */
export function ResetPasswordPage() {
  const { search } = useLocation();
  const [token, setToken] = useState(search.get('token') ?? '');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== repeat) return setError('The two passwords differ.');
    setBusy(true);
    setError(null);
    try {
      await api.auth.resetPassword(token.trim(), password);
      setDone(true);
    } catch (reason) {
      setError(describeError(reason));
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthFrame title="Set a new password">
      {done ? (
        <>
          <Alert kind="success">Your password is set. Every other session was signed out.</Alert>
          <p>
            <Link to="/login">Sign in</Link>
          </p>
        </>
      ) : (
        <>
          <Alert>{error}</Alert>
          <form onSubmit={submit} className="stack">
            {search.get('token') ? null : (
              <Field label="Reset token" hint="From the email, if the link did not fill it in.">
                {(id, hint) => (
                  <input
                    id={id}
                    aria-describedby={hint}
                    required
                    value={token}
                    onChange={(e) => setToken(e.target.value)}
                  />
                )}
              </Field>
            )}
            <Field label="New password" hint="10 to 256 characters.">
              {(id, hint) => (
                <input
                  id={id}
                  aria-describedby={hint}
                  type="password"
                  autoComplete="new-password"
                  minLength={10}
                  maxLength={256}
                  required
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
              )}
            </Field>
            <Field label="New password again">
              {(id) => (
                <input
                  id={id}
                  type="password"
                  autoComplete="new-password"
                  required
                  value={repeat}
                  onChange={(e) => setRepeat(e.target.value)}
                />
              )}
            </Field>
            <button type="submit" disabled={busy}>
              Set password
            </button>
          </form>
          <p>
            <Link to="/login">Back to sign-in</Link>
          </p>
        </>
      )}
    </AuthFrame>
  );
}
