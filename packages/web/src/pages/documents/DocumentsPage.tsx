import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { describeError } from '../../api/http';
import { hasRole, useApp } from '../../app-context';
import { Alert, ConfirmButton, Loading, PageHeader, Pager, StatusBadge } from '../../components/ui';
import { formatBytes, formatDate, plural } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { UploadZone } from './UploadZone';

const pageSize = 50;

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
  const [query, setQuery] = useState('');
  const [debounced, setDebounced] = useState('');
  const [status, setStatus] = useState('');
  const [offset, setOffset] = useState(0);
  const [actionError, setActionError] = useState<string | null>(null);
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
        <Alert>{docs.error ?? actionError}</Alert>
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
                  <tr key={doc.id} data-status={doc.status}>
                    <th scope="row">
                      <span className="doc-title">{doc.title || doc.filename}</span>
                      {doc.path !== (doc.title || doc.filename) ? <span className="hint block">{doc.path}</span> : null}
                      {doc.error ? <span className="error-text block">{doc.error}</span> : null}
                    </th>
                    <td>
                      <StatusBadge status={doc.status} />
                    </td>
                    <td>{doc.chunk_count}</td>
                    <td className="hide-narrow">{formatBytes(doc.size_bytes)}</td>
                    <td className="hide-narrow">{doc.source_type}</td>
                    <td className="hide-narrow">{formatDate(doc.created_at)}</td>
                    {editor ? (
                      <td>
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
        {docs.data ? <Pager total={docs.data.total} limit={pageSize} offset={offset} onOffset={setOffset} /> : null}
      </section>
    </>
  );
}
