import { useRef, useState, type DragEvent } from 'react';
import { describeError } from '../../api/http';
import { uploadDocuments, type UploadHandle } from '../../api/upload';
import { ProgressBar } from '../../components/ui';
import { formatBytes } from '../../lib/format';

interface Upload {
  id: number;
  names: string;
  bytes: number;
  loaded: number;
  state: 'uploading' | 'done' | 'failed' | 'cancelled';
  message: string;
  handle: UploadHandle;
}

const maxFilesPerRequest = 20; // the server takes at most 20 parts per upload

/** Drop files here, or choose them: each batch uploads with its own progress bar. */
export function UploadZone({ onUploaded }: { onUploaded(): void }) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const counter = useRef(0);

  const patch = (id: number, change: Partial<Upload>) =>
    setUploads((all) => all.map((u) => (u.id === id ? { ...u, ...change } : u)));

  const start = (files: File[]) => {
    for (let i = 0; i < files.length; i += maxFilesPerRequest) {
      const batch = files.slice(i, i + maxFilesPerRequest);
      const id = ++counter.current;
      const handle = uploadDocuments(batch, (loaded, total) =>
        patch(id, total ? { loaded, bytes: total } : { loaded }),
      );
      const bytes = batch.reduce((sum, file) => sum + file.size, 0);
      setUploads((all) => [
        { id, names: batch.map((f) => f.name).join(', '), bytes, loaded: 0, state: 'uploading', message: '', handle },
        ...all,
      ]);
      handle.done.then(
        (documents) => {
          const duplicates = documents.filter((d) => d.duplicate).length;
          patch(id, {
            state: 'done',
            loaded: bytes,
            message: `Uploaded ${documents.length} file${documents.length === 1 ? '' : 's'}${duplicates ? ` (${duplicates} already stored)` : ''}; indexing follows.`,
          });
          onUploaded();
        },
        (reason: unknown) =>
          patch(
            id,
            reason instanceof DOMException && reason.name === 'AbortError'
              ? { state: 'cancelled', message: 'Cancelled.' }
              : { state: 'failed', message: describeError(reason) },
          ),
      );
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const files = [...event.dataTransfer.files];
    if (files.length) start(files);
  };

  return (
    <section className="upload" aria-labelledby="upload-heading">
      <h2 id="upload-heading">Upload</h2>
      <div
        className={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p>Drop files here, or</p>
        <label className="button" htmlFor="upload-input">
          Choose files
        </label>
        <input
          id="upload-input"
          ref={inputRef}
          className="visually-hidden-input"
          type="file"
          multiple
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            if (files.length) start(files);
            event.target.value = '';
          }}
        />
        <p className="hint">Text, Markdown, PDF, Word, HTML, CSV, Excel and images; at most 20 files per upload.</p>
      </div>
      {uploads.length ? (
        <ul className="uploads" aria-label="Uploads">
          {uploads.map((upload) => (
            <li key={upload.id} className={`upload-${upload.state}`}>
              <div className="upload-row">
                <span className="upload-names">{upload.names}</span>
                <span className="hint">
                  {formatBytes(upload.loaded)} / {formatBytes(upload.bytes)}
                </span>
                {upload.state === 'uploading' ? (
                  <button type="button" className="subtle small" onClick={() => upload.handle.abort()}>
                    Cancel
                  </button>
                ) : null}
              </div>
              <ProgressBar value={upload.loaded} max={upload.bytes || null} label={`Upload of ${upload.names}`} />
              {upload.message ? (
                <p
                  className={upload.state === 'failed' ? 'alert alert-error' : 'hint'}
                  role={upload.state === 'failed' ? 'alert' : 'status'}
                >
                  {upload.message}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
