/**
 * Which responses become documents. The pipeline's extractors read HTML, plain text and PDF by
 * media type, and Markdown, CSV, DOCX and XLSX by extension too: web servers often answer those
 * with a generic type (application/octet-stream, text/plain), so the URL's extension counts as well.
 */

const documentMediaTypes = new Set([
  'text/html',
  'application/xhtml+xml',
  'text/plain',
  'application/pdf',
  'text/markdown',
  'text/x-markdown',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
]);

const documentExtensions = ['.md', '.markdown', '.csv', '.docx', '.xlsx'];

/**
 * Extensions that are never documents. Links to them are not fetched at all, which saves requests
 * (and max_pages) on sites that link every image and archive.
 */
const skippedExtensions = new Set([
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.webp',
  '.svg',
  '.ico',
  '.bmp',
  '.tif',
  '.tiff',
  '.css',
  '.js',
  '.mjs',
  '.map',
  '.json',
  '.xml',
  '.woff',
  '.woff2',
  '.ttf',
  '.eot',
  '.zip',
  '.gz',
  '.tgz',
  '.bz2',
  '.7z',
  '.rar',
  '.tar',
  '.exe',
  '.dmg',
  '.iso',
  '.apk',
  '.mp3',
  '.mp4',
  '.avi',
  '.mov',
  '.webm',
  '.ogg',
  '.wav',
  '.flac',
]);

/** `text/html; charset=utf-8` → `text/html`. */
export function mediaTypeEssence(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The `charset` parameter of a Content-Type, if any. */
export function charsetOf(contentType: string | null): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return match?.[1];
}

function extensionOf(url: URL): string {
  const name = url.pathname.slice(url.pathname.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : '';
}

export function isDocumentResponse(url: URL, contentType: string | null): boolean {
  return documentMediaTypes.has(mediaTypeEssence(contentType)) || documentExtensions.includes(extensionOf(url));
}

export function isHtml(contentType: string | null): boolean {
  const essence = mediaTypeEssence(contentType);
  return essence === 'text/html' || essence === 'application/xhtml+xml';
}

export function isWorthFetching(url: URL): boolean {
  return !skippedExtensions.has(extensionOf(url));
}
