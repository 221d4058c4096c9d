import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { ApiError, describeError } from '../api/http';
import type { Group, ResourceType } from '../api/types';
import { Link } from '../lib/router';
import { Alert, Loading } from './ui';

interface Loaded {
  groups: Group[];
  granted: string[];
}

/** Why the screen has nothing to set: the API answered 403 plan_required (spec: grants are ENTERPRISE). */
function PlanGate({ name, plan }: { name: string; plan: string }) {
  return (
    <div className="alert alert-info" role="status">
      <p>
        Access grants need the <strong>{plan}</strong> plan, which this server&apos;s license does not include. Without
        grants, {name} is visible to every signed-in user.
      </p>
      <p>
        <Link to="/admin/license">Apply a license</Link> to choose the groups that may see it.
      </p>
    </div>
  );
}

/**
 * The groups that may see a connector, an integration or a document (GET/PUT /api/access). No group
 * ticked means open to everyone; a document without grants follows its source.
 */
export function AccessPanel({
  type,
  id,
  name,
  onClose,
}: {
  type: ResourceType;
  id: string;
  name: string;
  onClose(): void;
}) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [gate, setGate] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([api.access.get(type, id), api.groups.list({ limit: 500 })]).then(
      ([access, groups]) => {
        if (!live) return;
        setLoaded({ groups: groups.items, granted: access.group_ids });
        setChosen(new Set(access.group_ids));
      },
      (reason: unknown) => {
        if (!live) return;
        if (reason instanceof ApiError && reason.code === 'plan_required')
          setGate(String(reason.body.required_plan ?? 'ENTERPRISE'));
        else setError(describeError(reason));
      },
    );
    return () => {
      live = false;
    };
  }, [type, id]);

  const save = async () => {
    setError(null);
    setSaved(null);
    try {
      const answer = await api.access.set(type, id, [...chosen]);
      const names = loaded!.groups.filter((g) => answer.group_ids.includes(g.id)).map((g) => g.name);
      setSaved(
        names.length === 0
          ? `${name} is open to every signed-in user.`
          : `Only members of ${names.join(', ')} (and admins) may see ${name}.`,
      );
    } catch (reason) {
      setError(describeError(reason));
    }
  };

  const title = `Access to ${name}`;
  return (
    <section className="card stack access" role="region" aria-label={title}>
      <div className="source-head">
        <h3>{title}</h3>
        <button type="button" className="subtle small" onClick={onClose}>
          Close
        </button>
      </div>
      {gate ? <PlanGate name={name} plan={gate} /> : null}
      <Alert>{error}</Alert>
      <Alert kind="success">{saved}</Alert>
      {!loaded && !gate && !error ? <Loading /> : null}
      {loaded ? (
        <>
          <fieldset>
            <legend>Groups that may see {name}</legend>
            {loaded.groups.map((group) => (
              <label key={group.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={chosen.has(group.id)}
                  onChange={(e) => {
                    const next = new Set(chosen);
                    if (e.target.checked) next.add(group.id);
                    else next.delete(group.id);
                    setChosen(next);
                  }}
                />{' '}
                {group.name}
              </label>
            ))}
          </fieldset>
          <p className="hint">
            No group ticked: every signed-in user sees it.
            {type === 'document' ? ' A document without grants of its own follows its source.' : ''} Admins see
            everything.
          </p>
          <div className="actions">
            <button type="button" className="small" onClick={() => void save()}>
              Save access
            </button>
          </div>
        </>
      ) : null}
    </section>
  );
}
