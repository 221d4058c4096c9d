import path from 'node:path';

/** Git stores no media types; the extension is all there is, and the pipeline reads by it too. */
const byExtension: Record<string, string> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.csv': 'text/csv',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export function mediaTypeOf(filePath: string): string {
  return byExtension[path.posix.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}
