import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/client';
import { describeError } from '../../api/http';
import type { User } from '../../api/types';
import { ApiKeyTable } from '../../components/ApiKeyTable';
import { Alert, Loading } from '../../components/ui';
import { useAsync } from '../../lib/use-async';

/**
 * An admin's view of one user's API keys (GET /api/auth/users/{id}/api-keys): what each may do and
 * when it was last used, and a revoke for any of them, such as a key that leaked or a script retired.
 */
export function UserApiKeys({ user, onClose }: { user: User; onClose(): void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Opened from a row of a long list: brought into view, and focus goes to it for screen readers.
  useEffect(() => {
    headingRef.current?.scrollIntoView({ block: 'nearest' });
    headingRef.current?.focus();
  }, []);
  const keys = useAsync(() => api.users.apiKeys(user.id), [user.id]);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const revoke = async (keyId: string, name: string) => {
    setMessage(null);
    try {
      await api.users.revokeApiKey(user.id, keyId);
      setMessage({ kind: 'success', text: `Revoked ${name} of ${user.username}.` });
    } catch (reason) {
      setMessage({ kind: 'error', text: describeError(reason) });
    }
    keys.reload();
  };
  return (
    <section className="card stack" aria-labelledby="user-api-keys-heading">
      <div className="toolbar">
        <h2 id="user-api-keys-heading" ref={headingRef} tabIndex={-1}>
          API keys of {user.username}
        </h2>
        <button type="button" className="subtle small" onClick={onClose}>
          Close
        </button>
      </div>
      {message ? <Alert kind={message.kind}>{message.text}</Alert> : null}
      <Alert>{keys.error}</Alert>
      {!keys.data ? (
        <Loading />
      ) : keys.data.items.length === 0 ? (
        <p className="hint">{user.username} has no API keys.</p>
      ) : (
        <ApiKeyTable
          keys={keys.data.items}
          caption={`${keys.data.items.length === 1 ? '1 key' : `${keys.data.items.length} keys`}, not revoked`}
          revokeLabel={(key) => `Revoke ${key.name} of ${user.username}`}
          onRevoke={(key) => void revoke(key.id, key.name)}
        />
      )}
    </section>
  );
}
