import { useEffect } from 'react';
import { api } from '../api/client';
import type { Source } from '../api/types';
import { useAsync } from '../lib/use-async';

export interface PickedSource {
  id: string;
  name: string;
  type: 'connector' | 'integration' | 'upload';
}

/** Connectors and integrations (and, when asked, the uploads) in one select. */
export function useSources(includeUploads: boolean) {
  return useAsync(async () => {
    const [connectors, integrations] = await Promise.all([
      api.sources.list('connectors'),
      api.sources.list('integrations'),
    ]);
    const as =
      (type: 'connector' | 'integration') =>
      (s: Source): PickedSource => ({ id: s.id, name: s.name, type });
    return [
      ...(includeUploads ? [{ id: 'uploads', name: 'Uploaded documents', type: 'upload' as const }] : []),
      ...connectors.items.map(as('connector')),
      ...integrations.items.map(as('integration')),
    ];
  }, [includeUploads]);
}

interface Props {
  sources: PickedSource[];
  value: string;
  onChange(id: string): void;
  label?: string;
}

export function SourcePicker({ sources, value, onChange, label = 'Source' }: Props) {
  // Pick the first source when none is chosen yet.
  useEffect(() => {
    if (!value && sources[0]) onChange(sources[0].id);
  }, [value, sources, onChange]);
  return (
    <label className="inline">
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {sources.length === 0 ? <option value="">No connector or integration yet</option> : null}
        {sources.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name} ({s.type})
          </option>
        ))}
      </select>
    </label>
  );
}
