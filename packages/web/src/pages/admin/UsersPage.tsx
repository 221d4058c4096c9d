import { useState, type FormEvent } from 'react';
import { api, pageSize } from '../../api/client';
import { describeError } from '../../api/http';
import type { Role, User } from '../../api/types';
import { useApp } from '../../app-context';
import { Alert, ConfirmButton, Field, Loading, PageHeader, Pager } from '../../components/ui';
import { formatDate } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { UserApiKeys } from './UserApiKeys';

const roles: Role[] = ['viewer', 'editor', 'admin'];

function NewUserForm({ onCreated }: { onCreated(user: User): void }) {
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      onCreated(await api.users.create({ username: username.trim(), password, role, email: email.trim() || null }));
      setUsername('');
      setEmail('');
      setPassword('');
      setRole('viewer');
    } catch (reason) {
      setError(describeError(reason));
    }
  };
  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="new-user-heading">
      <h2 id="new-user-heading">New user</h2>
      <Alert>{error}</Alert>
      <div className="grid-2">
        <Field label="User name">
          {(id) => (
            <input id={id} required autoComplete="off" value={username} onChange={(e) => setUsername(e.target.value)} />
          )}
        </Field>
        <Field label="Email">
          {(id) => (
            <input id={id} type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
          )}
        </Field>
        <Field label="Password" hint="10 to 256 characters.">
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              type="password"
              autoComplete="new-password"
              minLength={10}
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <Field label="Role">
          {(id) => (
            <select id={id} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {roles.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="actions">
        <button type="submit">Create user</button>
      </div>
    </form>
  );
}

export function UsersPage() {
  const { user: me } = useApp();
  const [offset, setOffset] = useState(0);
  const users = useAsync(() => api.users.list({ offset }), [offset]);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [keysOf, setKeysOf] = useState<User | null>(null);
  const act = async (action: () => Promise<unknown>, done: string) => {
    setError(null);
    setMessage(null);
    try {
      await action();
      setMessage(done);
    } catch (reason) {
      setError(describeError(reason));
    }
    users.reload();
  };
  const resetPassword = (user: User) => {
    const password = window.prompt(`New password for ${user.username} (10 to 256 characters):`);
    if (password)
      void act(
        () => api.users.update(user.id, { password }),
        `Set a new password for ${user.username}; their sessions were ended.`,
      );
  };
  return (
    <>
      <PageHeader title="Users" />
      <NewUserForm
        onCreated={(user) => {
          setMessage(`Created ${user.username}.`);
          users.reload();
        }}
      />
      <Alert kind="success">{message}</Alert>
      <Alert>{users.error ?? error}</Alert>
      {!users.data ? <Loading /> : null}
      {users.data ? (
        <div className="table-wrap">
          <table>
            <caption>{users.data.total} users</caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Sign-in</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data.items.map((user) => (
                <tr key={user.id} data-username={user.username}>
                  <th scope="row">{user.username}</th>
                  <td>{user.email ?? '—'}</td>
                  <td>
                    <select
                      aria-label={`Role of ${user.username}`}
                      value={user.role}
                      onChange={(e) =>
                        void act(
                          () => api.users.update(user.id, { role: e.target.value as Role }),
                          `${user.username} is now ${e.target.value}.`,
                        )
                      }
                    >
                      {roles.map((r) => (
                        <option key={r}>{r}</option>
                      ))}
                    </select>
                  </td>
                  <td>
                    {user.sso_provider
                      ? `SSO (${user.sso_provider})`
                      : user.mfa_enabled
                        ? 'Password + TOTP'
                        : 'Password'}
                  </td>
                  <td>{formatDate(user.created_at)}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="subtle small"
                      aria-pressed={keysOf?.id === user.id}
                      aria-label={`API keys of ${user.username}`}
                      onClick={() => setKeysOf(keysOf?.id === user.id ? null : user)}
                    >
                      API keys
                    </button>
                    {user.sso_provider ? null : (
                      <button type="button" className="subtle small" onClick={() => resetPassword(user)}>
                        Set password
                      </button>
                    )}
                    {user.id === me?.id ? null : (
                      <ConfirmButton
                        label={`Delete ${user.username}`}
                        onConfirm={() => void act(() => api.users.remove(user.id), `Deleted ${user.username}.`)}
                      >
                        Delete
                      </ConfirmButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {users.data ? (
        <Pager
          total={users.data.total}
          limit={pageSize}
          offset={users.data.offset}
          onOffset={setOffset}
          label="Pages of users"
        />
      ) : null}
      {keysOf ? <UserApiKeys key={keysOf.id} user={keysOf} onClose={() => setKeysOf(null)} /> : null}
    </>
  );
}
