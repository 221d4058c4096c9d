import { useCallback, useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { describeError } from '../../api/http';
import type { Rule, RuleInput } from '../../api/types';
import { Alert, ConfirmButton, Field, PageHeader } from '../../components/ui';
import { SourcePicker, useSources } from '../../components/SourcePicker';
import { navigate, useLocation } from '../../lib/router';
import { useAsync } from '../../lib/use-async';
import { RuleTester } from './RuleTester';

const emptyRule: RuleInput = {
  field_name: '',
  pattern: '',
  query_pattern: null,
  scope: 'full',
  level: 'document',
  chunk_boundary: false,
  priority: 0,
};

function RuleForm({
  sourceId,
  rule,
  onSaved,
  onCancel,
}: {
  sourceId: string;
  rule: Rule | null;
  onSaved(): void;
  onCancel(): void;
}) {
  const [form, setForm] = useState<RuleInput>(
    rule
      ? {
          field_name: rule.field_name,
          pattern: rule.pattern,
          query_pattern: rule.query_pattern,
          scope: rule.scope,
          level: rule.level,
          chunk_boundary: rule.chunk_boundary,
          priority: rule.priority,
        }
      : emptyRule,
  );
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof RuleInput>(name: K, value: RuleInput[K]) => setForm((f) => ({ ...f, [name]: value }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      if (rule) await api.rules.update(sourceId, rule.id, form);
      else await api.rules.create(sourceId, form);
      onSaved();
    } catch (reason) {
      setError(describeError(reason));
    }
  };
  return (
    <div className="two-columns">
      <form className="card stack" onSubmit={submit} aria-labelledby="rule-form-heading">
        <h2 id="rule-form-heading">{rule ? `Edit rule ${rule.field_name}` : 'New rule'}</h2>
        <Alert>{error}</Alert>
        <Field label="Field name">
          {(id) => (
            <input id={id} required value={form.field_name} onChange={(e) => set('field_name', e.target.value)} />
          )}
        </Field>
        <Field
          label="Pattern"
          hint="A Python regular expression with exactly one capture group, such as Contract: (\S+)"
        >
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              className="code"
              required
              value={form.pattern}
              onChange={(e) => set('pattern', e.target.value)}
            />
          )}
        </Field>
        <Field label="Query pattern" hint="Optional: matched against questions instead of the pattern.">
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              className="code"
              value={form.query_pattern ?? ''}
              onChange={(e) => set('query_pattern', e.target.value || null)}
            />
          )}
        </Field>
        <div className="grid-2">
          <Field label="Scope">
            {(id) => (
              <select id={id} value={form.scope} onChange={(e) => set('scope', e.target.value as RuleInput['scope'])}>
                <option value="full">Whole text</option>
                <option value="header">First 2,000 characters</option>
                <option value="filename">File name</option>
              </select>
            )}
          </Field>
          <Field label="Level">
            {(id) => (
              <select id={id} value={form.level} onChange={(e) => set('level', e.target.value as RuleInput['level'])}>
                <option value="document">Once per document</option>
                <option value="chunk">Per chunk, inherited</option>
              </select>
            )}
          </Field>
          <Field label="Priority" hint="Higher runs first.">
            {(id, hint) => (
              <input
                id={id}
                aria-describedby={hint}
                type="number"
                step={1}
                value={form.priority}
                onChange={(e) => set('priority', Number(e.target.value))}
              />
            )}
          </Field>
        </div>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.chunk_boundary}
            onChange={(e) => set('chunk_boundary', e.target.checked)}
          />{' '}
          Matches start a new chunk
        </label>
        <div className="actions">
          <button type="submit">{rule ? 'Save rule' : 'Create rule'}</button>
          <button type="button" className="subtle" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
      <RuleTester sourceId={sourceId} rule={form} />
    </div>
  );
}

export function RulesPage() {
  const { search } = useLocation();
  const sourceId = search.get('source') ?? '';
  const sources = useSources(false);
  const pick = useCallback(
    (id: string) => navigate(`/admin/rules?source=${encodeURIComponent(id)}`, { replace: true }),
    [],
  );
  const rules = useAsync(
    () => (sourceId ? api.rules.list(sourceId) : Promise.resolve({ items: [] as Rule[] })),
    [sourceId],
  );
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const act = async (action: () => Promise<unknown>, done: string) => {
    setError(null);
    try {
      await action();
      setMessage(done);
    } catch (reason) {
      setError(describeError(reason));
    }
    rules.reload();
  };
  return (
    <>
      <PageHeader title="Metadata rules">
        {sourceId ? (
          <button
            type="button"
            className="subtle"
            onClick={() => void act(() => api.rules.refresh(sourceId), 'Started a metadata refresh job.')}
          >
            Re-apply to indexed chunks
          </button>
        ) : null}
      </PageHeader>
      <div className="toolbar">
        <SourcePicker sources={sources.data ?? []} value={sourceId} onChange={pick} />
        {sourceId && editing === null ? (
          <button type="button" onClick={() => setEditing('new')}>
            New rule
          </button>
        ) : null}
      </div>
      <Alert kind="success">{message}</Alert>
      <Alert>{sources.error ?? rules.error ?? error}</Alert>
      {editing !== null && sourceId ? (
        <RuleForm
          key={editing === 'new' ? 'new' : editing.id}
          sourceId={sourceId}
          rule={editing === 'new' ? null : editing}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            setMessage('Saved the rule. New documents get it at indexing; re-apply for indexed ones.');
            rules.reload();
          }}
        />
      ) : null}
      {rules.data && rules.data.items.length === 0 && sourceId ? (
        <p className="hint">This source has no rules.</p>
      ) : null}
      {rules.data && rules.data.items.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Rules, highest priority first</caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Pattern</th>
                <th scope="col">Scope</th>
                <th scope="col">Level</th>
                <th scope="col">Priority</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.data.items.map((rule) => (
                <tr key={rule.id}>
                  <th scope="row">{rule.field_name}</th>
                  <td>
                    <code>{rule.pattern}</code>
                    {rule.query_pattern ? (
                      <span className="hint block">
                        query: <code>{rule.query_pattern}</code>
                      </span>
                    ) : null}
                  </td>
                  <td>{rule.scope}</td>
                  <td>
                    {rule.level}
                    {rule.chunk_boundary ? ', boundary' : ''}
                  </td>
                  <td>{rule.priority}</td>
                  <td className="actions">
                    <button type="button" className="subtle small" onClick={() => setEditing(rule)}>
                      Edit
                    </button>
                    <ConfirmButton
                      label={`Delete rule ${rule.field_name}`}
                      onConfirm={() => void act(() => api.rules.remove(sourceId, rule.id), 'Deleted the rule.')}
                    >
                      Delete
                    </ConfirmButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
