import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { describeError } from '../../api/http';
import type { DocumentRecord } from '../../api/types';
import { Field } from '../../components/ui';

/**
 * Moves a document to another path of its source (POST /api/docs/move): a connector's file is renamed
 * in its storage and keeps its chunks; a conflict or a refused path comes back as the API's sentence.
 */
export function MoveForm({
  doc,
  onMoved,
  onCancel,
}: {
  doc: DocumentRecord;
  onMoved(doc: DocumentRecord): void;
  onCancel(): void;
}) {
  const [target, setTarget] = useState(doc.path);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      onMoved(await api.docs.move(doc.id, target.trim()));
    } catch (reason) {
      setError(describeError(reason));
    }
  };
  return (
    <form className="stack move-form" onSubmit={submit} aria-label={`Move ${doc.filename}`}>
      <Field label={`New path of ${doc.filename}`}>
        {(id) => <input id={id} className="code" required value={target} onChange={(e) => setTarget(e.target.value)} />}
      </Field>
      {error ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="small" disabled={!target.trim() || target.trim() === doc.path}>
          Move
        </button>
        <button type="button" className="subtle small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
