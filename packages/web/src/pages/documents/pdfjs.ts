// pdf.js and its worker are bundled by Vite: the worker is a file under /assets on our own origin
// (the page's Content-Security-Policy allows workers from 'self' only), never a CDN. Loaded on
// first use, so the rest of the UI does not carry pdf.js.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

export type PdfJs = typeof import('pdfjs-dist');

let loading: Promise<PdfJs> | null = null;

export function loadPdfJs(): Promise<PdfJs> {
  loading ??= import('pdfjs-dist').then((pdfjs) => {
    pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
    return pdfjs;
  });
  return loading;
}
