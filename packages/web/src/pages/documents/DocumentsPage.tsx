import { useEffect, useState } from 'react';
import { api, pageSize } from '../../api/client';
import { describeError } from '../../api/http';
import { hasRole, useApp } from '../../app-context';
import { AccessPanel } from '../../components/AccessPanel';
import { Alert, ConfirmButton, Loading, PageHeader, Pager, StatusBadge } from '../../components/ui';
import { formatBytes, formatDate, plural } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { MoveForm } from './DocumentActions';
import { UploadZone } from './UploadZone';

function IndexSummary({ refreshKey }: { refreshKey: unknown }) {
  const stats = useAsync(() => api.docs.stats(), [refreshKey]);
  if (!stats.data) return null;
  const { documents, chunks } = stats.data;
  return (
    <p className="summary" aria-label="Index">
      {plural(documents.total, 'document')}: {documents.indexed} indexed, {documents.pending + documents.indexing}{' '}
      waiting, {documents.failed} failed · {plural(chunks, 'chunk')} · {formatBytes(stats.data.index_size_bytes)} on
      disk
    </p>
  );
}

export function DocumentsPage() {
  const { user } = useApp();
  const editor = hasRole(user, 'editor');
  const admin = hasRole(user, 'admin');
  const [query, setQuery] = useState('');
  const [debounced, setDebounced] = useState('');
  const [status, setStatus] = useState('');
  const [offset, setOffset] = useState(0);
  const [actionError, setActionError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  // The row whose move form or access panel is open.
  const [open, setOpen] = useState<{ id: string; what: 'move' | 'access' } | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => {
      setDebounced(query.trim());
      setOffset(0);
    }, 250);
    return () => clearTimeout(timer);
  }, [query]);

  const [busy, setBusy] = useState(false);
  const docs = useAsync(
    () => api.docs.list({ q: debounced, status, limit: pageSize, offset }),
    [debounced, status, offset],
    { pollMs: 1500, poll: busy },
  );
  // Poll while something is waiting to be indexed, so the status changes as it happens.
  useEffect(() => {
    setBusy(!!docs.data?.items.some((d) => d.status === 'pending' || d.status === 'indexing'));
  }, [docs.data]);

  const remove = async (id: string) => {
    setActionError(null);
    try {
      await api.docs.remove(id);
    } catch (reason) {
      setActionError(describeError(reason));
    }
    docs.reload();
  };

  const removeSelected = async () => {
    setActionError(null);
    setMessage(null);
    try {
      const result = await api.docs.removeMany([...selected]);
      setMessage(
        `Deleted ${plural(result.deleted.length, 'document')}` +
          (result.not_found.length ? `; ${result.not_found.length} were already gone.` : '.'),
      );
      setSelected(new Set());
    } catch (reason) {
      setActionError(describeError(reason));
    }
    docs.reload();
  };

  const items = docs.data?.items ?? [];
  const allSelected = items.length > 0 && items.every((d) => selected.has(d.id));
  const toggle = (ids: string[], on: boolean) => {
    const next = new Set(selected);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    setSelected(next);
  };

  return (
    <>
      <PageHeader title="Documents">
        {editor ? (
          <ConfirmButton
            label="Rebuild the index"
            onConfirm={() =>
              void api.docs.rebuild().then(
                () => setActionError(null),
                (reason: unknown) => setActionError(describeError(reason)),
              )
            }
          >
            Rebuild index
          </ConfirmButton>
        ) : null}
      </PageHeader>
      <IndexSummary refreshKey={docs.data} />
      {editor ? <UploadZone onUploaded={docs.reload} /> : null}
      <section aria-labelledby="list-heading">
        <h2 id="list-heading">All documents</h2>
        <div className="toolbar" role="search">
          <label className="inline">
            <span>Search</span>
            <input
              type="search"
              value={query}
              placeholder="File name, path or title"
              onChange={(e) => setQuery(e.target.value)}
            />
          </label>
          <label className="inline">
            <span>Status</span>
            <select
              value={status}
              onChange={(e) => {
                setStatus(e.target.value);
                setOffset(0);
              }}
            >
              <option value="">Any</option>
              <option value="pending">Pending</option>
              <option value="indexing">Indexing</option>
              <option value="indexed">Indexed</option>
              <option value="failed">Failed</option>
            </select>
          </label>
        </div>
        {editor && selected.size > 0 ? (
          <div className="toolbar" role="group" aria-label="Selected documents">
            <span>{plural(selected.size, 'document')} selected</span>
            <ConfirmButton
              label={`Delete ${plural(selected.size, 'selected document')}`}
              onConfirm={() => void removeSelected()}
            >
              Delete selected
            </ConfirmButton>
            <button type="button" className="subtle small" onClick={() => setSelected(new Set())}>
              Clear selection
            </button>
          </div>
        ) : null}
        <Alert>{docs.error ?? actionError}</Alert>
        <Alert kind="success">{message}</Alert>
        {!docs.data && docs.loading ? <Loading /> : null}
        {docs.data && docs.data.items.length === 0 ? (
          <p className="hint">No documents{debounced || status ? ' match' : ' yet'}.</p>
        ) : null}
        {docs.data && docs.data.items.length > 0 ? (
          <div className="table-wrap">
            <table className="documents">
              <caption className="visually-hidden">Documents</caption>
              <thead>
                <tr>
                  {editor ? (
                    <th scope="col">
                      <input
                        type="checkbox"
                        aria-label="Select every document on this page"
                        checked={allSelected}
                        onChange={(e) =>
                          toggle(
                            items.map((d) => d.id),
                            e.target.checked,
                          )
                        }
                      />
                    </th>
                  ) : null}
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Chunks</th>
                  <th scope="col" className="hide-narrow">
                    Size
                  </th>
                  <th scope="col" className="hide-narrow">
                    Source
                  </th>
                  <th scope="col" className="hide-narrow">
                    Added
                  </th>
                  {editor ? (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {docs.data.items.map((doc) => (
                  <tr key={doc.id} data-status={doc.status} data-path={doc.path}>
                    {editor ? (
                      <td>
                        <input
                          type="checkbox"
                          aria-label={`Select ${doc.path}`}
                          checked={selected.has(doc.id)}
                          onChange={(e) => toggle([doc.id], e.target.checked)}
                        />
                      </td>
                    ) : null}
                    <th scope="row">
                      <span className="doc-title">{doc.title || doc.filename}</span>
                      {doc.path !== (doc.title || doc.filename) ? <span className="hint block">{doc.path}</span> : null}
                      {doc.error ? <span className="error-text block">{doc.error}</span> : null}
                      {open?.id === doc.id && open.what === 'move' ? (
                        <MoveForm
                          doc={doc}
                          onCancel={() => setOpen(null)}
                          onMoved={(moved) => {
                            setOpen(null);
                            setMessage(`Moved ${doc.path} to ${moved.path}.`);
                            docs.reload();
                          }}
                        />
                      ) : null}
                      {open?.id === doc.id && open.what === 'access' ? (
                        <AccessPanel type="document" id={doc.id} name={doc.path} onClose={() => setOpen(null)} />
                      ) : null}
                    </th>
                    <td>
                      <StatusBadge status={doc.status} />
                    </td>
                    <td>{doc.chunk_count}</td>
                    <td className="hide-narrow">{formatBytes(doc.size_bytes)}</td>
                    <td className="hide-narrow">{doc.source_type}</td>
                    <td className="hide-narrow">{formatDate(doc.created_at)}</td>
                    {editor ? (
                      <td className="actions">
                        <button
                          type="button"
                          className="subtle small"
                          aria-label={`Move ${doc.path}`}
                          aria-expanded={open?.id === doc.id && open.what === 'move'}
                          onClick={() =>
                            setOpen(open?.id === doc.id && open.what === 'move' ? null : { id: doc.id, what: 'move' })
                          }
                        >
                          Move
                        </button>
                        {admin ? (
                          <button
                            type="button"
                            className="subtle small"
                            aria-label={`Access to ${doc.path}`}
                            aria-expanded={open?.id === doc.id && open.what === 'access'}
                            onClick={() =>
                              setOpen(
                                open?.id === doc.id && open.what === 'access' ? null : { id: doc.id, what: 'access' },
                              )
                            }
                          >
                            Access
                          </button>
                        ) : null}
                        <ConfirmButton label={`Delete ${doc.filename}`} onConfirm={() => void remove(doc.id)}>
                          Delete
                        </ConfirmButton>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {docs.data ? (
          <Pager total={docs.data.total} limit={pageSize} offset={docs.data.offset} onOffset={setOffset} />
        ) : null}
      </section>
    </>
  );
}
