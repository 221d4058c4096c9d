import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';

/**
 * A zip bomb built from a real .xlsx in memory, for the limit tests: no large file is committed.
 * `rows` rows of one long text are added to the first sheet, from row 1000 on, compressed at
 * level 9. exceljs needs each row and cell to name its address, which is all that differs between
 * rows: the sheet still compresses about 150 to 1, beyond maxCompressionRatio, and 55,000 rows
 * inflate to about 100 MB from under 1 MB, as the red team's XLSX bombs did.
 */
export function inflatedXlsx(
  xlsx: Uint8Array,
  rows: number,
  text = 'All work and no play makes Jack a dull boy. '.repeat(40),
): Uint8Array {
  const parts = unzipSync(xlsx);
  const sheet = strFromU8(parts['xl/worksheets/sheet1.xml']!);
  const added: string[] = [];
  for (let n = 1000; n < 1000 + rows; n++) {
    added.push(`<row r="${n}"><c r="A${n}" t="inlineStr"><is><t>${text}</t></is></c></row>`);
  }
  const zippable: Zippable = {};
  for (const [name, bytes] of Object.entries(parts)) {
    zippable[name] =
      name === 'xl/worksheets/sheet1.xml'
        ? strToU8(sheet.replace('</sheetData>', `${added.join('')}</sheetData>`))
        : bytes;
  }
  return zipSync(zippable, { level: 9 });
}
