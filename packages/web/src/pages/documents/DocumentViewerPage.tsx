import { api } from '../../api/client';
import type { DocumentContent } from '../../api/types';
import { Alert, Loading, PageHeader } from '../../components/ui';
import { Link, useLocation } from '../../lib/router';
import { useAsync } from '../../lib/use-async';
import { pageOfRange } from './find-passage';
import { PdfView } from './PdfView';
import { TextView } from './TextView';
import './viewer.css';

const offsetParam = (value: string | null) => {
  const n = Number(value);
  return value !== null && Number.isInteger(n) && n >= 0 ? n : null;
};

/** The headings the range starts under, from the content's section map. */
function headingPathAt(content: DocumentContent, offset: number): string[] {
  const section = content.sections.find((s) => s.char_start <= offset && offset < s.char_end);
  return section?.heading_path ?? [];
}

/**
 * A document opened at a cited passage (`/documents/{id}/view?start=&end=&page=`, from a citation):
 * a PDF's page rendered with the passage highlighted, every other format's extracted text with the
 * range marked; the heading path the passage sits under above it.
 */
export function DocumentViewerPage({ documentId }: { documentId: string }) {
  const { search } = useLocation();
  const start = offsetParam(search.get('start')) ?? 0;
  const end = Math.max(start, offsetParam(search.get('end')) ?? start);
  const pageParam = offsetParam(search.get('page'));
  // The passage itself, with the document's title, type, sections and pages.
  const content = useAsync(
    () => api.documentView.content(documentId, start, Math.max(1, Math.min(100_000, end - start))),
    [documentId, start, end],
  );
  const data = content.data;
  const headings = data ? headingPathAt(data, start) : [];
  const isPdf = data?.media_type === 'application/pdf';
  const page = data ? (pageOfRange(data.pages, start, end) ?? pageParam ?? 1) : 1;

  return (
    <>
      <PageHeader title={data?.title ?? 'Document'}>
        <Link to="/documents">All documents</Link>
      </PageHeader>
      <Alert>{content.error}</Alert>
      {!data && !content.error ? <Loading label="Opening the document…" /> : null}
      {data ? (
        <>
          <p className="viewer-location">
            {headings.length ? (
              <span className="heading-path" aria-label="Heading path">
                {headings.join(' › ')}
              </span>
            ) : null}
            {isPdf ? <span className="hint"> Cited on page {page}.</span> : null}
          </p>
          {isPdf ? (
            <PdfView documentId={documentId} passage={data.text} initialPage={page} />
          ) : (
            <TextView documentId={documentId} start={start} end={end} totalChars={data.total_chars} />
          )}
        </>
      ) : null}
    </>
  );
}
