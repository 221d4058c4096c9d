/**
 * Just enough MIME reading for the tests to see what a mail client would show: unfolded headers with
 * RFC 2047 encoded words decoded, and the text/plain body with its transfer encoding undone. UTF-8
 * only — the provider under test sends nothing else.
 */
export interface ReadMessage {
  /** Header values by lower-case name (the first of each), decoded. */
  headers: Map<string, string>;
  /** The text/plain body, or the text/plain part of a multipart message. */
  text: string;
}

export function readMessage(raw: Buffer): ReadMessage {
  const source = raw.toString('latin1'); // byte per char: the transfer encodings work on bytes
  const split = source.indexOf('\r\n\r\n');
  const headerBlock = split === -1 ? source : source.slice(0, split);
  const body = split === -1 ? '' : source.slice(split + 4);
  const headers = readHeaders(headerBlock);
  const contentType = headers.get('content-type') ?? 'text/plain';

  if (contentType.toLowerCase().startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) throw new Error(`multipart message without a boundary: ${contentType}`);
    // The line break before a boundary line belongs to the boundary (RFC 2046 5.1.1), not the part.
    const parts = body
      .split(`--${boundary}`)
      .slice(1, -1)
      .map((part) => readMessage(Buffer.from(part.replace(/^\r\n/, '').replace(/\r\n$/, ''), 'latin1')));
    const textPart = parts.find((part) =>
      (part.headers.get('content-type') ?? '').toLowerCase().startsWith('text/plain'),
    );
    if (!textPart) throw new Error('multipart message without a text/plain part');
    return { headers, text: textPart.text };
  }
  // SMTP data always ends in a line break, added by the client when the text had none: drop it, so a
  // text without a final newline reads back as it was sent.
  const bytes = undoTransferEncoding(body.replace(/\r\n$/, ''), headers.get('content-transfer-encoding') ?? '7bit');
  return { headers, text: bytes.toString('utf8') };
}

function readHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  // Unfolding removes the line break only; the whitespace that follows stays (RFC 5322 2.2.3).
  for (const line of block.replace(/\r\n(?=[ \t])/g, '').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name))
      headers.set(name, decodeEncodedWords(Buffer.from(line.slice(colon + 1).trim(), 'latin1').toString('utf8')));
  }
  return headers;
}

/**
 * RFC 2047: `=?UTF-8?B?...?=` and `=?UTF-8?Q?...?=`. Whitespace between two encoded words is dropped,
 * and their bytes are joined before decoding, since a character may be split across two words.
 */
function decodeEncodedWords(value: string): string {
  const encodedWord = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  const adjacent = value.replace(/\?=\s+=\?/g, '?==?');
  let decoded = '';
  let pendingBytes: Buffer[] = [];
  const flush = () => {
    decoded += Buffer.concat(pendingBytes).toString('utf8');
    pendingBytes = [];
  };
  let last = 0;
  for (const match of adjacent.matchAll(encodedWord)) {
    const [word, charset = '', encoding = '', payload = ''] = match;
    if (match.index > last) {
      flush();
      decoded += adjacent.slice(last, match.index);
    }
    if (charset.toLowerCase() !== 'utf-8') throw new Error(`unexpected charset in ${word}`);
    pendingBytes.push(
      encoding.toUpperCase() === 'B' ? Buffer.from(payload, 'base64') : decodeHexEscapes(payload.replace(/_/g, ' ')),
    );
    last = match.index + word.length;
  }
  flush();
  return decoded + adjacent.slice(last);
}

function undoTransferEncoding(body: string, encoding: string): Buffer {
  switch (encoding.trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable':
      // `=` at a line end is a soft break that the encoder added to keep lines short.
      return decodeHexEscapes(body.replace(/=\r\n/g, ''));
    default:
      return Buffer.from(body, 'latin1');
  }
}

/** `=XX` escapes to bytes; every other character stands for its own (latin1) byte. */
function decodeHexEscapes(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const hex = text[i] === '=' ? text.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(text.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}
