/**
 * Hostile files for the end-to-end suite, made in memory in well under a second: no large file is
 * committed, and pdf-lib needs minutes for 100,000 pages.
 */

/**
 * A valid PDF of `pages` empty pages, written by hand: one Pages node listing every page, each page
 * its own object, and a cross-reference table, as the red team's 16 MB, 100,000-page PDF was.
 */
export function pageBombPdf(pages: number): Buffer {
  const parts: string[] = ['%PDF-1.4\n'];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  const object = (text: string) => {
    offsets.push(length);
    parts.push(text);
    length += Buffer.byteLength(text);
  };
  const firstPage = 3;
  object('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n');
  const kids = Array.from({ length: pages }, (_, index) => `${firstPage + index} 0 R`).join(' ');
  object(`2 0 obj\n<< /Type /Pages /Count ${pages} /Kids [${kids}] >>\nendobj\n`);
  for (let index = 0; index < pages; index++) {
    object(`${firstPage + index} 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>\nendobj\n`);
  }
  const xrefAt = length;
  const rows = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${rows}`);
  parts.push(`trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}
