import type { ApiKey } from '../api/types';
import { formatDate } from '../lib/format';
import { ConfirmButton } from './ui';

/**
 * A table of API keys with a revoke button each: the Account screen shows the caller's own, the
 * Users screen an admin's view of another user's. Never the secret, only its prefix.
 */
export function ApiKeyTable(props: {
  keys: ApiKey[];
  caption: string;
  /** The revoke button's accessible name for one key. */
  revokeLabel: (key: ApiKey) => string;
  onRevoke: (key: ApiKey) => void;
}) {
  return (
    <div className="table-wrap">
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.keys.map((key) => (
            <tr key={key.id} data-key-name={key.name}>
              <th scope="row">{key.name}</th>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>{key.scopes.join(', ')}</td>
              <td>{formatDate(key.created_at)}</td>
              <td>{key.expires_at ? formatDate(key.expires_at) : 'never'}</td>
              <td>{key.last_used_at ? formatDate(key.last_used_at) : 'never'}</td>
              <td className="actions">
                <ConfirmButton label={props.revokeLabel(key)} onConfirm={() => props.onRevoke(key)}>
                  Revoke
                </ConfirmButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
