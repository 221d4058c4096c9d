import { open } from 'node:fs/promises';

/**
 * A .docx is a zip archive. A password-protected one is not: Word wraps the encrypted package in an
 * OLE compound file (CFB), the same container as the old binary .doc. Both start with this signature.
 */
const compoundFileSignature = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** The stream an encrypted OOXML package always has, named in UTF-16LE in the CFB directory. */
const encryptionInfoName = Buffer.from('EncryptionInfo', 'utf16le');

export type WordContainer = 'zip' | 'encrypted' | 'compound-file' | 'other';

/**
 * What kind of file this is, from its first bytes and, for a compound file, its stream names. The
 * compound file is read in chunks so that a large file is never held in memory at once.
 */
export async function detectWordContainer(path: string): Promise<WordContainer> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(compoundFileSignature.length);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    if (bytesRead >= 4 && head.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) return 'zip';
    if (bytesRead < head.length || !head.equals(compoundFileSignature)) return 'other';
    return (await containsBytes(file, encryptionInfoName)) ? 'encrypted' : 'compound-file';
  } finally {
    await file.close();
  }
}

async function containsBytes(file: import('node:fs/promises').FileHandle, needle: Buffer): Promise<boolean> {
  const chunkSize = 1 << 20;
  // Keep the tail of the previous chunk so a name split across two chunks is still found.
  let carry = Buffer.alloc(0);
  let position = 0;
  for (;;) {
    const chunk = Buffer.alloc(chunkSize);
    const { bytesRead } = await file.read(chunk, 0, chunkSize, position);
    if (bytesRead === 0) return false;
    const window = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
    if (window.includes(needle)) return true;
    carry = window.subarray(Math.max(0, window.length - needle.length + 1));
    position += bytesRead;
  }
}
