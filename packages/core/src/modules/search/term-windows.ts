import { DocqaError } from '@docqa/plugin-api';

/**
 * A frequent term's postings as bitmap windows: per 65,536 chunk numbers, which chunks have the term
 * (a bitmap), then each posting's tf and chunk length in chunk order. Search then ranks on bitmap
 * words instead of decoding every posting: a million postings of four frequent words were 1–2 s as
 * SQL and 9 ms this way (docs/operations.md, Frequent words).
 *
 * Payload, little-endian: u32 postings, u16 bound pairs, the pairs (u16 tf, u16 shortest length at
 * that tf), padding to 4 bytes, the bitmap (2,048 u32 words), tf per posting (u8), padding to 2,
 * length per posting (u16).
 */
export const windowSpan = 65_536;
export const windowWords = windowSpan / 32;
const maxTf = 255;
const maxLength = 65_535;

export interface WindowPosting {
  /** The chunk's number within the window, 0 ≤ offset < windowSpan. */
  offset: number;
  tf: number;
  length: number;
}

/** A window opened for ranking: its bitmap with each word's rank, and where tf and lengths start. */
export interface OpenWindow {
  bits: Uint32Array;
  /** Postings before each bitmap word: a bit's posting index is rankBefore[word] + the bits below it. */
  rankBefore: Int32Array;
  /** (tf, shortest length) pairs no posting beats: a saturation bound whatever the average length. */
  boundPairs: readonly (readonly [number, number])[];
  tf: Uint8Array;
  lengths: Uint16Array;
}

/** Whether a posting fits the payload's fields (else its term keeps being ranked from SQL only). */
export function fitsWindow(posting: { tf: number; length: number }): boolean {
  return posting.tf >= 1 && posting.tf <= maxTf && posting.length >= 0 && posting.length <= maxLength;
}

/**
 * For each tf, the shortest chunk at that tf, keeping only pairs no other pair dominates (higher tf
 * and no longer chunk): saturation rises with tf and falls with length, so the best of these pairs
 * bounds every posting's saturation for any average length.
 */
function boundPairsOf(postings: readonly WindowPosting[]): [number, number][] {
  const shortest = new Map<number, number>();
  for (const { tf, length } of postings) shortest.set(tf, Math.min(length, shortest.get(tf) ?? maxLength));
  const pairs: [number, number][] = [];
  for (const [tf, length] of [...shortest].sort((a, b) => b[0] - a[0]))
    if (pairs.length === 0 || length < (pairs[pairs.length - 1] as [number, number])[1]) pairs.push([tf, length]);
  return pairs;
}

const align = (offset: number, to: number) => Math.ceil(offset / to) * to;

/** One window's payload from its postings, ordered by offset, each offset once. */
export function encodeWindow(postings: readonly WindowPosting[]): Uint8Array {
  const pairs = boundPairsOf(postings);
  const bitsAt = align(6 + 4 * pairs.length, 4);
  const tfAt = bitsAt + windowWords * 4;
  const lengthsAt = align(tfAt + postings.length, 2);
  const payload = new Uint8Array(lengthsAt + 2 * postings.length);
  const view = new DataView(payload.buffer);
  view.setUint32(0, postings.length, true);
  view.setUint16(4, pairs.length, true);
  pairs.forEach(([tf, length], i) => {
    view.setUint16(6 + 4 * i, tf, true);
    view.setUint16(8 + 4 * i, length, true);
  });
  let previous = -1;
  postings.forEach((posting, i) => {
    if (!fitsWindow(posting) || posting.offset <= previous || posting.offset >= windowSpan)
      throw new DocqaError('internal', `posting out of a window's range or order: ${JSON.stringify(posting)}`);
    previous = posting.offset;
    const wordAt = bitsAt + 4 * (posting.offset >>> 5);
    view.setUint32(wordAt, (view.getUint32(wordAt, true) | (1 << (posting.offset & 31))) >>> 0, true);
    payload[tfAt + i] = posting.tf;
    view.setUint16(lengthsAt + 2 * i, posting.length, true);
  });
  return payload;
}

/** Set bits of a 32-bit word. */
export function bitCount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

const littleEndian = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/**
 * A payload read back for ranking. Copied once to an aligned buffer (a payload cut from a read need
 * not be), whose bitmap and lengths are then viewed in place; a big-endian machine copies them out.
 */
export function openWindow(payload: Uint8Array): OpenWindow {
  // Not payload.slice(): a Buffer's slice is a view into its (pooled) memory, not a copy.
  const own = new Uint8Array(payload.byteLength);
  own.set(payload);
  const view = new DataView(own.buffer);
  const postings = view.getUint32(0, true);
  const pairCount = view.getUint16(4, true);
  const boundPairs: [number, number][] = [];
  for (let i = 0; i < pairCount; i++)
    boundPairs.push([view.getUint16(6 + 4 * i, true), view.getUint16(8 + 4 * i, true)]);
  const bitsAt = align(6 + 4 * pairCount, 4);
  const tfAt = bitsAt + windowWords * 4;
  const lengthsAt = align(tfAt + postings, 2);
  if (own.byteLength !== lengthsAt + 2 * postings) throw new DocqaError('internal', 'a term window of the wrong size');
  const bits = littleEndian
    ? new Uint32Array(own.buffer, bitsAt, windowWords)
    : Uint32Array.from({ length: windowWords }, (_, word) => view.getUint32(bitsAt + 4 * word, true));
  const lengths = littleEndian
    ? new Uint16Array(own.buffer, lengthsAt, postings)
    : Uint16Array.from({ length: postings }, (_, i) => view.getUint16(lengthsAt + 2 * i, true));
  const rankBefore = new Int32Array(windowWords);
  let rank = 0;
  for (let word = 0; word < windowWords; word++) {
    rankBefore[word] = rank;
    rank += bitCount(bits[word] as number);
  }
  return { bits, rankBefore, boundPairs, tf: own.subarray(tfAt, tfAt + postings), lengths };
}
