import crypto from 'node:crypto';
import type { Metadata, OutputInfo } from 'sharp';
import { DocqaError } from '@docqa/plugin-api';
import { logoTooLarge, maxLogoBytes } from './contract.js';

/** Logos are shown small: larger ones are scaled down to fit this square. */
const maxLogoSide = 512;
/** Decompression bombs: a tiny file claiming a huge canvas is refused before it is decoded. */
const maxInputPixels = 40_000_000;

export interface NormalisedLogo {
  mediaType: 'image/png' | 'image/jpeg' | 'image/webp';
  bytes: Buffer;
  sha256: string;
  width: number;
  height: number;
}

const rasterOutputs = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

/**
 * Checks and re-encodes an uploaded logo. PNG, JPEG and WebP are decoded and encoded again (which
 * drops metadata and anything hidden after the image data), scaled down to 512 px at most. SVG is
 * refused if it declares entities or refers to anything outside itself, then rendered to PNG, so
 * no script or link in it can ever reach a browser.
 */
export async function normaliseLogo(input: Buffer): Promise<NormalisedLogo> {
  if (input.length === 0)
    throw new DocqaError('validation_failed', 'The logo is empty.', {
      errors: [{ field: 'file', message: 'is empty' }],
    });
  if (input.length > maxLogoBytes) throw logoTooLarge(input.length);
  const svg = looksLikeSvg(input);
  if (svg) refuseUnsafeSvg(input.toString('utf8'));
  // Loaded on the first logo, not with the server: sharp and its libvips are about 30 MB resident
  // (measured in a bare process: 18 MB of memory, 14 MB of mapped code), and most servers never get a logo.
  const { default: sharp } = await import('sharp');
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: maxInputPixels }).metadata();
  } catch {
    throw notAnImage();
  }
  const format = metadata.format as string | undefined;
  if (!format || !(svg ? format === 'svg' : format in rasterOutputs)) throw notAnImage();
  const output = svg ? 'png' : (format as keyof typeof rasterOutputs);
  let encoded: { data: Buffer; info: OutputInfo };
  try {
    const pipeline = sharp(input, { limitInputPixels: maxInputPixels, ...(svg ? { density: 144 } : {}) })
      .rotate()
      .resize({ width: maxLogoSide, height: maxLogoSide, fit: 'inside', withoutEnlargement: !svg });
    encoded = await (
      output === 'png'
        ? pipeline.png()
        : output === 'jpeg'
          ? pipeline.jpeg({ quality: 90 })
          : pipeline.webp({ quality: 90 })
    ).toBuffer({ resolveWithObject: true });
  } catch {
    throw notAnImage();
  }
  return {
    mediaType: rasterOutputs[output],
    bytes: encoded.data,
    sha256: crypto.createHash('sha256').update(encoded.data).digest('hex'),
    width: encoded.info.width,
    height: encoded.info.height,
  };
}

function notAnImage(): DocqaError {
  return new DocqaError('unsupported_media_type', 'The logo must be a PNG, JPEG, WebP or SVG image.');
}

function looksLikeSvg(input: Buffer): boolean {
  const head = input.subarray(0, 1024).toString('utf8').trimStart().toLowerCase();
  return (
    head.startsWith('<svg') ||
    ((head.startsWith('<?xml') || head.startsWith('<!--') || head.startsWith('<!doctype svg')) && head.includes('<svg'))
  );
}

/** External references would make the renderer read files or the network; entities allow expansion bombs. */
function refuseUnsafeSvg(text: string): void {
  const problems: string[] = [];
  if (/<!ENTITY/i.test(text)) problems.push('declares entities');
  for (const match of text.matchAll(/\b(?:xlink:)?href\s*=\s*["']\s*([^"']*)["']/gi)) {
    const target = match[1] ?? '';
    if (!target.startsWith('#') && !/^data:image\/(png|jpeg|gif|webp);base64,/i.test(target))
      problems.push(`refers to ${target.slice(0, 60) || 'an empty link'}`);
  }
  if (/url\(\s*["']?(?!#)[^)]*\)/i.test(text)) problems.push('uses url() outside the document');
  if (/@import/i.test(text)) problems.push('imports a stylesheet');
  if (problems.length > 0) {
    throw new DocqaError(
      'unsupported_media_type',
      `The SVG logo was refused: it ${[...new Set(problems)].join(', ')}. Use a self-contained SVG, or a PNG.`,
    );
  }
}
