import { useState, type FormEvent } from 'react';
import { describeError } from '../../api/http';
import type { Source, SourceInput, SourceKind } from '../../api/types';
import { Alert, Field } from '../../components/ui';

// Starting points for the first-party plugins; any installed plugin's type can be typed instead.
export const configTemplates: Record<string, Record<string, unknown>> = {
  filesystem: { path: '/srv/documents', include: ['**/*'] },
  web: { start_url: 'https://intranet.example.com/docs/', max_pages: 500, max_depth: 5, delay_ms: 250 },
  s3: {
    bucket: 'documents',
    region: 'us-east-1',
    prefix: 'handbook/',
    access_key_id: 'AKIA…',
    secret_access_key: 'secret',
  },
  git: { url: 'https://git.example.com/team/handbook.git', branch: 'main' },
};

export const typesOf: Record<SourceKind, string[]> = { connectors: ['filesystem'], integrations: ['web', 's3', 'git'] };

interface Props {
  kind: SourceKind;
  source?: Source;
  onSave(input: SourceInput): Promise<void>;
  onCancel(): void;
}

/** Create or edit a connector or integration: name, plugin type, the plugin's config as JSON, enabled. */
export function SourceForm({ kind, source, onSave, onCancel }: Props) {
  const firstType = typesOf[kind][0] ?? '';
  const [name, setName] = useState(source?.name ?? '');
  const [type, setType] = useState(source?.type ?? firstType);
  const [config, setConfig] = useState(JSON.stringify(source?.config ?? configTemplates[firstType] ?? {}, null, 2));
  const [enabled, setEnabled] = useState(source?.enabled ?? true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const changeType = (next: string) => {
    setType(next);
    if (!source && configTemplates[next]) setConfig(JSON.stringify(configTemplates[next], null, 2));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(config) as Record<string, unknown>;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('The configuration must be a JSON object.');
    } catch (reason) {
      return setError(`Configuration: ${describeError(reason)}`);
    }
    setBusy(true);
    setError(null);
    try {
      await onSave({ name: name.trim(), type: type.trim(), config: parsed, enabled });
    } catch (reason) {
      setError(describeError(reason));
    } finally {
      setBusy(false);
    }
  };

  const noun = kind === 'connectors' ? 'connector' : 'integration';
  return (
    <form className="card stack" onSubmit={submit} aria-label={source ? `Edit ${source.name}` : `New ${noun}`}>
      <h3>{source ? `Edit ${source.name}` : `New ${noun}`}</h3>
      <Alert>{error}</Alert>
      <div className="grid-2">
        <Field label="Name">
          {(id) => <input id={id} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Type" hint="The plugin that reads this source.">
          {(id, hint) => (
            <>
              <input
                id={id}
                aria-describedby={hint}
                list={`${id}-types`}
                required
                value={type}
                disabled={!!source}
                onChange={(e) => changeType(e.target.value)}
              />
              <datalist id={`${id}-types`}>
                {typesOf[kind].map((t) => (
                  <option key={t} value={t} />
                ))}
              </datalist>
            </>
          )}
        </Field>
      </div>
      <Field
        label="Configuration (JSON)"
        hint={'The plugin\'s options. Secret values show as "***"; leave them so to keep the stored value.'}
      >
        {(id, hint) => (
          <textarea
            id={id}
            aria-describedby={hint}
            className="code"
            rows={8}
            spellCheck={false}
            value={config}
            onChange={(e) => setConfig(e.target.value)}
          />
        )}
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
      </label>
      <div className="actions">
        <button type="submit" disabled={busy}>
          {source ? 'Save' : `Create ${noun}`}
        </button>
        <button type="button" className="subtle" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
