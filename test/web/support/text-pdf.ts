/** One line of text on a page: its baseline height from the bottom in points, and its size. */
export interface PdfLine {
  text: string;
  y: number;
  size?: number;
  bold?: boolean;
}

const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);

/**
 * A PDF with a real text layer, written by hand (as hostile-inputs.ts writes its page bomb): pages of
 * 600 x 800 points, lines in Helvetica or Helvetica-Bold (the standard fonts, not embedded; ASCII
 * text only). Larger bold lines read as headings to the PDF extractor.
 */
export function textPdf(pages: PdfLine[][]): Buffer {
  const parts: string[] = ['%PDF-1.4\n'];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  const object = (text: string) => {
    offsets.push(length);
    parts.push(text);
    length += Buffer.byteLength(text, 'latin1');
  };
  // 1 catalog, 2 pages, 3 and 4 fonts, then a page and its content stream per page.
  const pageObject = (index: number) => 5 + index * 2;
  object('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n');
  const kids = pages.map((_, index) => `${pageObject(index)} 0 R`).join(' ');
  object(`2 0 obj\n<< /Type /Pages /Count ${pages.length} /Kids [${kids}] >>\nendobj\n`);
  object('3 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>\nendobj\n');
  object('4 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>\nendobj\n');
  pages.forEach((lines, index) => {
    const n = pageObject(index);
    object(
      `${n} 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] ` +
        `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${n + 1} 0 R >>\nendobj\n`,
    );
    const stream = lines
      .map(
        (line) => `BT /${line.bold ? 'F2' : 'F1'} ${line.size ?? 11} Tf 50 ${line.y} Td (${escape(line.text)}) Tj ET`,
      )
      .join('\n');
    object(
      `${n + 1} 0 obj\n<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream\nendobj\n`,
    );
  });
  const xrefAt = length;
  const rows = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${rows}`);
  parts.push(`trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}
