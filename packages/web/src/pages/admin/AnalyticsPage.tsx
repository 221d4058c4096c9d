import { useCallback } from 'react';
import { api } from '../../api/client';
import { hasRole, useApp } from '../../app-context';
import { describeError } from '../../api/http';
import { Alert, Loading, PageHeader } from '../../components/ui';
import { SourcePicker, useSources } from '../../components/SourcePicker';
import { navigate, useLocation } from '../../lib/router';
import { useAsync } from '../../lib/use-async';
import { FeedbackReport } from './FeedbackReport';
import { ReportView } from './ReportView';

const reports: Array<{ path: string; title: string }> = [
  { path: 'chunk-size-distribution', title: 'Chunk sizes' },
  { path: 'chunks-per-document', title: 'Chunks per document' },
  { path: 'metadata-coverage', title: 'Metadata coverage' },
  { path: 'metadata-hit-rate', title: 'Rule hit rates' },
  { path: 'inheritance-ratio', title: 'Inherited values' },
  { path: 'empty-metadata', title: 'Chunks without metadata' },
  { path: 'rule-priority-audit', title: 'Rule priorities' },
];

function Report({ sourceId, path, title }: { sourceId: string; path: string; title: string }) {
  const report = useAsync(
    () =>
      api.analytics(sourceId, path).then(
        (data) => ({ data, error: null as string | null }),
        (reason: unknown) => ({ data: null, error: describeError(reason) }),
      ),
    [sourceId, path],
  );
  return (
    <section className="card report-card" aria-labelledby={`report-${path}`}>
      <h2 id={`report-${path}`}>{title}</h2>
      {!report.data ? <Loading /> : null}
      {report.data?.error ? <p className="hint">{report.data.error}</p> : null}
      {report.data && !report.data.error ? <ReportView data={report.data.data} /> : null}
    </section>
  );
}

export function AnalyticsPage() {
  const { user } = useApp();
  const { search } = useLocation();
  const sourceId = search.get('source') ?? '';
  const sources = useSources(true);
  const pick = useCallback(
    (id: string) => navigate(`/admin/analytics?source=${encodeURIComponent(id)}`, { replace: true }),
    [],
  );
  return (
    <>
      <PageHeader title="Analytics" />
      <div className="toolbar">
        <SourcePicker sources={sources.data ?? []} value={sourceId} onChange={pick} />
      </div>
      {/* Every user's ratings: the API answers them to admins only. */}
      {hasRole(user, 'admin') ? <FeedbackReport /> : null}
      <Alert>{sources.error}</Alert>
      {sourceId ? (
        <div className="report-grid">
          {reports.map((report) => (
            <Report key={`${sourceId}-${report.path}`} sourceId={sourceId} {...report} />
          ))}
        </div>
      ) : null}
    </>
  );
}
