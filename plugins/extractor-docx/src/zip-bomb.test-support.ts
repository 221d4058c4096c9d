import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';

/**
 * Zip bombs built from a real .docx in memory, for the limit tests: no large file is committed.
 * `paragraphs` copies of one paragraph make word/document.xml inflate to tens of MB from a few
 * hundred KB, as the red team's 0.9 MB DOCX inflating to 319 MB did.
 */
export function inflatedDocx(
  docx: Uint8Array,
  paragraphs: number,
  text = 'All work and no play makes Jack a dull boy.',
): Uint8Array {
  const parts = unzipSync(docx);
  const xml = strFromU8(parts['word/document.xml']!);
  const paragraph = `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`;
  const body = xml.replace('<w:body>', `<w:body>${paragraph.repeat(paragraphs)}`);
  const zippable: Zippable = {};
  for (const [name, bytes] of Object.entries(parts)) {
    zippable[name] = name === 'word/document.xml' ? strToU8(body) : bytes;
  }
  return zipSync(zippable, { level: 9 });
}

/** The .docx with `count` small extra entries. */
export function manyEntriesDocx(docx: Uint8Array, count: number): Uint8Array {
  const zippable: Zippable = { ...unzipSync(docx) };
  for (let index = 0; index < count; index += 1) zippable[`customXml/item${index}.xml`] = strToU8('<x/>');
  return zipSync(zippable);
}

/**
 * The archive with word/document.xml declaring it inflates to `declaredBytes` in both its local
 * header and its central directory entry, whatever it really inflates to: sizes can lie.
 */
export function lyingSizes(zip: Uint8Array, declaredBytes: number): Uint8Array {
  const bytes = Buffer.from(zip);
  const name = Buffer.from('word/document.xml');
  for (let offset = 0; offset < bytes.length - 4; offset += 1) {
    const signature = bytes.readUInt32LE(offset);
    // Local file header: name at 30, uncompressed size at 22. Central directory entry: name at 46, size at 24.
    const namedAt = (start: number) => bytes.subarray(offset + start, offset + start + name.length).equals(name);
    if (signature === 0x04034b50 && namedAt(30)) bytes.writeUInt32LE(declaredBytes, offset + 22);
    if (signature === 0x02014b50 && namedAt(46)) bytes.writeUInt32LE(declaredBytes, offset + 24);
  }
  return bytes;
}
