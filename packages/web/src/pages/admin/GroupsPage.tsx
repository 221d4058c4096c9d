import { useState, type FormEvent } from 'react';
import { api, pageSize } from '../../api/client';
import { describeError } from '../../api/http';
import type { Group, User } from '../../api/types';
import { Alert, ConfirmButton, Field, PageHeader, Pager } from '../../components/ui';
import { useAsync } from '../../lib/use-async';

function Members({ group, users, onError }: { group: Group; users: User[]; onError(text: string | null): void }) {
  const detail = useAsync(() => api.groups.get(group.id), [group.id]);
  const [adding, setAdding] = useState('');
  const members = detail.data?.members ?? [];
  const change = async (action: () => Promise<unknown>) => {
    onError(null);
    try {
      await action();
    } catch (reason) {
      onError(describeError(reason));
    }
    detail.reload();
  };
  if (group.builtin) return <p className="hint">Every user is a member.</p>;
  return (
    <div className="stack">
      <ul className="chips" aria-label={`Members of ${group.name}`}>
        {members.length === 0 ? <li className="hint">No members yet.</li> : null}
        {members.map((member) => (
          <li key={member.id} className="chip">
            {member.username}
            <button
              type="button"
              className="subtle small"
              aria-label={`Remove ${member.username} from ${group.name}`}
              onClick={() => void change(() => api.groups.removeMember(group.id, member.id))}
            >
              ✕
            </button>
          </li>
        ))}
      </ul>
      <div className="toolbar">
        <label className="inline">
          <span>Add member</span>
          <select value={adding} onChange={(e) => setAdding(e.target.value)}>
            <option value="">Choose a user…</option>
            {users
              .filter((u) => !members.some((m) => m.id === u.id))
              .map((u) => (
                <option key={u.id} value={u.id}>
                  {u.username}
                </option>
              ))}
          </select>
        </label>
        <button
          type="button"
          className="small"
          disabled={!adding}
          onClick={() => void change(() => api.groups.addMember(group.id, adding)).then(() => setAdding(''))}
        >
          Add
        </button>
      </div>
    </div>
  );
}

export function GroupsPage() {
  const [offset, setOffset] = useState(0);
  const groups = useAsync(() => api.groups.list({ offset }), [offset]);
  // The member picker offers every user, not one page of them.
  const users = useAsync(() => api.users.list({ limit: 500 }), []);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await api.groups.create({ name: name.trim(), description });
      setName('');
      setDescription('');
      groups.reload();
    } catch (reason) {
      setError(describeError(reason));
    }
  };
  return (
    <>
      <PageHeader title="Groups" />
      <p className="hint">
        Groups decide who sees a connector, an integration or a document (ENTERPRISE). A resource without grants is open
        to every signed-in user.
      </p>
      <form className="card stack" onSubmit={create} aria-labelledby="new-group-heading">
        <h2 id="new-group-heading">New group</h2>
        <div className="grid-2">
          <Field label="Name">
            {(id) => <input id={id} required value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Field label="Description">
            {(id) => <input id={id} value={description} onChange={(e) => setDescription(e.target.value)} />}
          </Field>
        </div>
        <div className="actions">
          <button type="submit">Create group</button>
        </div>
      </form>
      <Alert>{groups.error ?? error}</Alert>
      <ul className="source-list">
        {(groups.data?.items ?? []).map((group) => (
          <li key={group.id} className="card">
            <div className="source-head">
              <strong>{group.name}</strong> {group.builtin ? <span className="badge">built in</span> : null}{' '}
              <span className="hint">{group.description}</span>
              {group.builtin ? null : (
                <ConfirmButton
                  label={`Delete group ${group.name}`}
                  onConfirm={() =>
                    void api.groups
                      .remove(group.id)
                      .then(groups.reload, (reason: unknown) => setError(describeError(reason)))
                  }
                >
                  Delete
                </ConfirmButton>
              )}
            </div>
            <Members group={group} users={users.data?.items ?? []} onError={setError} />
          </li>
        ))}
      </ul>
      {groups.data ? (
        <Pager
          total={groups.data.total}
          limit={pageSize}
          offset={groups.data.offset}
          onOffset={setOffset}
          label="Pages of groups"
        />
      ) : null}
    </>
  );
}
