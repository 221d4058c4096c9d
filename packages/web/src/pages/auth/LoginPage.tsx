import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { ApiError, describeError } from '../../api/http';
import { session } from '../../api/session';
import { useApp } from '../../app-context';
import { Alert, Field } from '../../components/ui';
import { Link, navigate, useLocation } from '../../lib/router';
import { AuthFrame } from './AuthFrame';

/** Where to go after signing in: a path of this UI only. */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/login') ? next : '/';
}

function OidcButtons({ next }: { next: string }) {
  const [providers, setProviders] = useState<Array<{ name: string; display_name: string }>>([]);
  useEffect(() => {
    api.auth.oidcProviders().then(
      (answer) => setProviders(answer.items),
      () => setProviders([]),
    );
  }, []);
  if (providers.length === 0) return null;
  return (
    <section className="sso" aria-labelledby="sso-heading">
      <h2 id="sso-heading" className="divider">
        <span>or sign in with</span>
      </h2>
      <ul className="sso-list">
        {providers.map((provider) => (
          <li key={provider.name}>
            {/* A full page load: the server redirects to the identity provider, which returns to `next` with the tokens in the fragment. */}
            <a
              className="button secondary"
              href={`/api/auth/oidc/${encodeURIComponent(provider.name)}/login?return_to=${encodeURIComponent(next)}`}
            >
              {provider.display_name}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function LoginPage() {
  const { search } = useLocation();
  const next = safeNext(search.get('next'));
  const { branding, user } = useApp();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [mfaToken, setMfaToken] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  const pending = useRef<{ username: string; password: string } | null>(null);

  useEffect(() => {
    if (mfaToken) codeRef.current?.focus();
  }, [mfaToken]);
  // Signed in (here, by single sign-on's fragment, or in another tab): on to where the user was going.
  useEffect(() => {
    if (user) navigate(next, { replace: true });
  }, [user, next]);

  const signIn = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await api.auth.login(username, password);
      if ('mfa_required' in answer) {
        pending.current = { username, password };
        setMfaToken(answer.mfa_token);
        setPassword('');
      } else {
        session.set(answer);
      }
    } catch (reason) {
      setError(describeError(reason));
    } finally {
      setBusy(false);
    }
  };

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    if (!mfaToken) return;
    setBusy(true);
    setError(null);
    try {
      const pair = await api.auth.verifyMfa(mfaToken, code.trim());
      pending.current = null;
      session.set(pair);
    } catch (reason) {
      setError(describeError(reason));
      setCode('');
      // The MFA token works once, right code or wrong: after a wrong code a new one is fetched with
      // the credentials held (in memory only) for this step; anything else means starting over.
      const again =
        reason instanceof ApiError && reason.code === 'invalid_credentials' && pending.current
          ? await api.auth.login(pending.current.username, pending.current.password).catch(() => null)
          : null;
      if (again && 'mfa_required' in again) setMfaToken(again.mfa_token);
      else {
        pending.current = null;
        setMfaToken(null);
      }
    } finally {
      setBusy(false);
    }
  };

  if (mfaToken) {
    return (
      <AuthFrame title="Two-step verification">
        <p>Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
        <Alert>{error}</Alert>
        <form onSubmit={verify} className="stack">
          <Field label="Verification code">
            {(id) => (
              <input
                id={id}
                ref={codeRef}
                name="code"
                inputMode="text"
                autoComplete="one-time-code"
                required
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            )}
          </Field>
          <button type="submit" disabled={busy}>
            Verify
          </button>
          <button
            type="button"
            className="subtle"
            onClick={() => {
              pending.current = null;
              setMfaToken(null);
            }}
          >
            Back to sign-in
          </button>
        </form>
      </AuthFrame>
    );
  }

  return (
    <AuthFrame title="Sign in">
      {branding.texts.welcome ? <p className="welcome">{branding.texts.welcome}</p> : null}
      <Alert>{error}</Alert>
      <form onSubmit={signIn} className="stack">
        <Field label="User name">
          {(id) => (
            <input
              id={id}
              name="username"
              autoComplete="username"
              required
              value={username}
              onChange={(e) => setUsername(e.target.value)}
            />
          )}
        </Field>
        <Field label="Password">
          {(id) => (
            <input
              id={id}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
      <OidcButtons next={next} />
    </AuthFrame>
  );
}
