import { useState } from 'react';
import { api } from '../../../api/client';
import { describeError } from '../../../api/http';
import type { Job, Models } from '../../../api/types';
import { Alert, Loading, PageHeader } from '../../../components/ui';
import { formatBytes } from '../../../lib/format';
import { useAsync } from '../../../lib/use-async';
import { PullProgress } from './PullProgress';

type Active = Models['active']['chat'];

function InUse({ purpose, active }: { purpose: string; active: Active }) {
  return (
    <div>
      <dt>{purpose}</dt>
      <dd data-purpose={purpose}>
        {active ? (
          <>
            <strong>{active.name}</strong> ({active.source === 'switched' ? 'chosen here' : 'configured'}
            {active.context_length ? `, context ${active.context_length}` : ''})
          </>
        ) : (
          'none from MODELS_DIR (the configured backend)'
        )}
      </dd>
    </div>
  );
}

/**
 * Local GGUF models (GET /api/models): the ones in use, the installed files with a switch for each,
 * and the catalogue with pulls that show their progress.
 */
export function ModelsPage() {
  const models = useAsync(() => api.models.list(), []);
  const [pulls, setPulls] = useState<Record<string, string>>({});
  const [reembed, setReembed] = useState(true);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const data = models.data;

  const pull = async (name: string) => {
    setError(null);
    setMessage(null);
    try {
      const { job_id } = await api.models.pull(name);
      setPulls((current) => ({ ...current, [name]: job_id }));
    } catch (reason) {
      setError(describeError(reason));
    }
  };
  const pulled = (name: string, job: Job) => {
    setPulls(({ [name]: _done, ...rest }) => rest);
    if (job.status === 'succeeded') setMessage(`Pulled ${name}.`);
    else setError(job.error ?? `The pull of ${name} ${job.status === 'cancelled' ? 'was cancelled' : 'failed'}.`);
    models.reload();
  };
  const use = async (name: string | null, purpose: 'chat' | 'embedding') => {
    setError(null);
    setMessage(null);
    try {
      const answer = await api.models.use({ name, purpose, reembed: purpose === 'embedding' && reembed });
      setMessage(
        `${answer.name ?? 'The configured model'} is now the ${answer.purpose} model` +
          (answer.purpose === 'chat' ? ` (context ${answer.effective_n_ctx}).` : '.') +
          (answer.rebuild_job_id ? ' Re-embedding every document started.' : ''),
      );
    } catch (reason) {
      setError(describeError(reason));
    }
    models.reload();
  };

  return (
    <>
      <PageHeader title="Models" />
      <Alert>{models.error ?? error}</Alert>
      <Alert kind="success">{message}</Alert>
      {!data ? <Loading /> : null}
      {data ? (
        <>
          <section aria-labelledby="in-use-heading" className="card stack">
            <h2 id="in-use-heading">In use</h2>
            <dl className="stats">
              <InUse purpose="chat" active={data.active.chat} />
              <InUse purpose="embedding" active={data.active.embedding} />
            </dl>
            {data.index.stale ? (
              <p className="alert alert-info" role="status">
                {data.index.chunks - data.index.embedded_chunks} of {data.index.chunks} chunks lack a vector of the
                embedding model in use: rebuild the index (Documents) to search them again.
              </p>
            ) : null}
            <p className="hint">Models live in {data.models_dir}.</p>
          </section>
          <section aria-labelledby="installed-heading">
            <h2 id="installed-heading">Installed</h2>
            <label className="checkbox">
              <input type="checkbox" checked={reembed} onChange={(e) => setReembed(e.target.checked)} /> Re-embed every
              document after switching the embedding model
            </label>
            {data.installed.length === 0 ? <p className="hint">No model is installed yet: pull one below.</p> : null}
            {data.installed.length > 0 ? (
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Installed models</caption>
                  <thead>
                    <tr>
                      <th scope="col">Model</th>
                      <th scope="col">Purpose</th>
                      <th scope="col">Size</th>
                      <th scope="col">Context</th>
                      <th scope="col">License</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.installed.map((model) => {
                      const { purpose } = model;
                      // A reranking model is chosen with RAG_RERANK_MODEL, not switched in here.
                      const inUse = purpose !== 'reranking' && data.active[purpose]?.name === model.name;
                      return (
                        <tr key={model.file} data-model={model.name}>
                          <th scope="row">
                            {model.name} <span className="hint block">{model.file}</span>
                          </th>
                          <td>{model.purpose}</td>
                          <td>{formatBytes(model.size_bytes)}</td>
                          <td>{model.context_length ?? model.embedding_length ?? '—'}</td>
                          <td>{model.license ?? '—'}</td>
                          <td className="actions">
                            {purpose === 'reranking' ? (
                              <span className="hint">RAG_RERANK_MODEL</span>
                            ) : inUse ? (
                              <>
                                <span className="badge badge-succeeded">in use</span>
                                <button
                                  type="button"
                                  className="subtle small"
                                  aria-label={`Stop using ${model.name}`}
                                  onClick={() => void use(null, purpose)}
                                >
                                  Use configured
                                </button>
                              </>
                            ) : (
                              <button
                                type="button"
                                className="small"
                                aria-label={`Use ${model.name}`}
                                onClick={() => void use(model.name, purpose)}
                              >
                                Use
                              </button>
                            )}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            ) : null}
          </section>
          <section aria-labelledby="catalogue-heading">
            <h2 id="catalogue-heading">Catalogue</h2>
            <ul className="source-list">
              {data.available.map((entry) => (
                <li key={entry.name} className="card stack" data-model={entry.name}>
                  <div className="source-head">
                    <strong>{entry.name}</strong> <span className="badge">{entry.purpose}</span>{' '}
                    {entry.recommended ? <span className="badge">recommended</span> : null}{' '}
                    {entry.installed ? <span className="badge badge-succeeded">installed</span> : null}
                  </div>
                  <p className="hint">
                    {[entry.description, entry.size, entry.quantization, entry.license].filter(Boolean).join(' · ')}
                  </p>
                  {pulls[entry.name] ? (
                    <PullProgress
                      name={entry.name}
                      jobId={pulls[entry.name]!}
                      onFinished={(job) => pulled(entry.name, job)}
                    />
                  ) : entry.installed ? null : (
                    <div className="actions">
                      <button
                        type="button"
                        className="small"
                        aria-label={`Pull ${entry.name}`}
                        onClick={() => void pull(entry.name)}
                      >
                        Pull
                      </button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          </section>
        </>
      ) : null}
    </>
  );
}
