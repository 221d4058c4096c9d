import { useEffect, useRef, useState } from 'react';
import type { PDFDocumentLoadingTask, PDFDocumentProxy } from 'pdfjs-dist';
import { api } from '../../api/client';
import { describeError } from '../../api/http';
import { Alert, Loading } from '../../components/ui';
import { findPassage } from './find-passage';
import { loadPdfJs } from './pdfjs';

/** CSS pixels per PDF point at which a page is drawn (the canvas has the device's pixel ratio on top). */
const scale = 1.4;

/**
 * A PDF from GET /api/docs/{id}/file (fetched with the bearer token, as a blob), one page at a time:
 * the canvas, pdf.js's text layer over it (selectable text), and the cited passage highlighted on
 * the page it opens at and scrolled into view.
 */
export function PdfView({
  documentId,
  passage,
  initialPage,
}: {
  documentId: string;
  passage: string;
  initialPage: number;
}) {
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [pageNumber, setPageNumber] = useState(initialPage);
  const [error, setError] = useState<string | null>(null);
  const [found, setFound] = useState<boolean | null>(null);
  const pageRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    let task: PDFDocumentLoadingTask | null = null;
    (async () => {
      const [pdfjs, blob] = await Promise.all([loadPdfJs(), api.documentView.file(documentId, controller.signal)]);
      if (controller.signal.aborted) return;
      task = pdfjs.getDocument({ data: new Uint8Array(await blob.arrayBuffer()) });
      const opened = await task.promise;
      if (!controller.signal.aborted) setPdf(opened);
    })().catch((reason: unknown) => {
      if (!controller.signal.aborted) setError(describeError(reason));
    });
    return () => {
      controller.abort();
      void task?.destroy();
    };
  }, [documentId]);

  useEffect(() => setPageNumber(initialPage), [initialPage]);

  useEffect(() => {
    const container = pageRef.current;
    if (!pdf || !container) return;
    let cancelled = false;
    let cancel = () => undefined as void;
    (async () => {
      const pdfjs = await loadPdfJs();
      const page = await pdf.getPage(Math.min(Math.max(1, pageNumber), pdf.numPages));
      if (cancelled) return;
      const viewport = page.getViewport({ scale });
      const ratio = window.devicePixelRatio || 1;
      const canvas = document.createElement('canvas');
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${Math.floor(viewport.width)}px`;
      canvas.style.height = `${Math.floor(viewport.height)}px`;
      const textLayerDiv = document.createElement('div');
      textLayerDiv.className = 'textLayer';
      container.replaceChildren(canvas, textLayerDiv);
      // The variables pdf.js's text layer sizes itself with (its own viewer sets them on the page).
      container.style.setProperty('--total-scale-factor', String(viewport.scale));
      container.style.setProperty('--scale-round-x', '1px');
      container.style.setProperty('--scale-round-y', '1px');
      container.style.width = canvas.style.width;
      container.style.height = canvas.style.height;
      const render = page.render({
        canvas,
        viewport,
        transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
      });
      const textLayer = new pdfjs.TextLayer({
        textContentSource: page.streamTextContent(),
        container: textLayerDiv,
        viewport,
      });
      cancel = () => {
        render.cancel();
        textLayer.cancel();
      };
      await Promise.all([render.promise, textLayer.render()]);
      if (cancelled) return;
      const match = passage ? findPassage(textLayer.textContentItemsStr, passage) : null;
      setFound(passage ? match !== null : null);
      if (!match) return;
      const divs = textLayer.textDivs.slice(match.first, match.last + 1);
      for (const div of divs) div.classList.add('highlight');
      divs[0]?.scrollIntoView({ block: 'center' });
    })().catch((reason: unknown) => {
      if (!cancelled && !(reason instanceof Error && reason.name === 'RenderingCancelledException'))
        setError(describeError(reason));
    });
    return () => {
      cancelled = true;
      cancel();
    };
  }, [pdf, pageNumber, passage]);

  const count = pdf?.numPages ?? 0;
  return (
    <section className="pdf-view" aria-label="PDF page">
      <Alert>{error}</Alert>
      {!pdf && !error ? <Loading label="Opening the PDF…" /> : null}
      {pdf ? (
        <nav className="toolbar pdf-nav" aria-label="Pages">
          <button type="button" disabled={pageNumber <= 1} onClick={() => setPageNumber((n) => n - 1)}>
            Previous page
          </button>
          <span className="pdf-page-number" aria-live="polite" data-page={pageNumber}>
            Page {pageNumber} of {count}
          </span>
          <button type="button" disabled={pageNumber >= count} onClick={() => setPageNumber((n) => n + 1)}>
            Next page
          </button>
          {found === false && pageNumber === initialPage ? (
            <span className="hint">The passage could not be found in this page's text layer.</span>
          ) : null}
        </nav>
      ) : null}
      <div className="pdf-page" ref={pageRef} data-page-number={pageNumber} />
    </section>
  );
}
