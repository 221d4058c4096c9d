import sharp, { type Metadata, type Sharp } from 'sharp';
import { DocqaError } from '@docqa/plugin-api';

/** The formats this extractor declares; sharp reads more (SVG, WebP, GIF…), which we do not claim. */
const readableFormats = new Set(['png', 'jpeg', 'tiff']);

/**
 * Largest image handed to tesseract, in pixels: an A4 page at about 500 dpi. Larger scans are scaled
 * down, which keeps the WASM heap and the time per page bounded and loses nothing tesseract needs.
 */
export const maxOcrPixels = 25_000_000;

/** Refuse to decode beyond this (a decompression bomb), before any pixel is allocated. */
const maxInputPixels = 200_000_000;

/** Tesseract reads best when a line of text is at least this tall; smaller text gets upscaled. */
export const minTextHeightPx = 30;
/** The line height an upscale aims for, a margin above the minimum. */
export const targetTextHeightPx = 40;
/** Upscaling further than this invents no detail; the result only gets slower to read. */
export const maxUpscale = 4;

export interface PageImage {
  /** Greyscale PNG, as tesseract reads it. */
  png: Buffer;
  width: number;
  height: number;
}

export function notReadableImage(filename: string, cause: unknown): DocqaError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new DocqaError('unsupported_media_type', `${filename} is not a readable image: ${reason}`, { cause });
}

/** Checks the file is a PNG, JPEG or TIFF sharp can open, and counts its pages (TIFF can have many). */
export async function countImagePages(path: string, filename: string): Promise<number> {
  let metadata: Metadata;
  try {
    metadata = await sharp(path, { limitInputPixels: maxInputPixels }).metadata();
  } catch (error) {
    throw notReadableImage(filename, error);
  }
  if (!readableFormats.has(metadata.format ?? '')) {
    throw new DocqaError(
      'unsupported_media_type',
      `${filename} is a ${metadata.format ?? 'unknown'} image; only PNG, JPEG and TIFF are read`,
    );
  }
  return metadata.pages ?? 1;
}

/**
 * One page, ready for OCR: turned upright by its EXIF orientation (phone photos), transparency put
 * on white (dark text on a transparent background would otherwise turn black on black), greyscale
 * (tesseract binarises anyway; one channel is a third of the memory), and scaled down to the pixel
 * budget. `failOn: 'error'` makes a truncated file an error instead of a half-grey page.
 */
export async function renderPage(path: string, filename: string, pageIndex: number): Promise<PageImage> {
  try {
    const open = () => sharp(path, { page: pageIndex, pages: 1, limitInputPixels: maxInputPixels, failOn: 'error' });
    const { width = 0, height = 0, orientation = 1 } = await open().metadata();
    const scale = Math.min(1, Math.sqrt(maxOcrPixels / Math.max(1, width * height)));
    // EXIF orientations 5 to 8 turn the image a quarter: the upright width is the stored height.
    const uprightWidth = orientation >= 5 ? height : width;
    let pipeline = open().autoOrient().flatten({ background: '#ffffff' }).greyscale();
    if (scale < 1) pipeline = pipeline.resize({ width: Math.max(1, Math.round(uprightWidth * scale)) });
    return await toPageImage(pipeline);
  } catch (error) {
    throw notReadableImage(filename, error);
  }
}

/**
 * The factor that brings text of `textHeight` pixels to the target height,
 * within the pixel budget; 1 when it is tall enough.
 */
export function upscaleFactor(textHeight: number, image: { width: number; height: number }): number {
  if (textHeight >= minTextHeightPx || textHeight <= 0) return 1;
  const wanted = Math.min(maxUpscale, targetTextHeightPx / textHeight);
  const allowed = Math.sqrt(maxOcrPixels / Math.max(1, image.width * image.height));
  const factor = Math.min(wanted, allowed);
  // Less than a quarter larger is not worth a second recognition.
  return factor >= 1.25 ? factor : 1;
}

export async function upscalePage(page: PageImage, factor: number): Promise<PageImage> {
  return toPageImage(sharp(page.png).resize({ width: Math.round(page.width * factor), kernel: 'lanczos3' }));
}

async function toPageImage(pipeline: Sharp): Promise<PageImage> {
  // Fast compression: the PNG lives for one recognition, and tesseract decodes it again at once.
  // 300 dpi, because tesseract takes the file's resolution for its size heuristics (and warns about,
  // then guesses for, the 72 or nonsense many files carry); after normalising, text is 300-dpi sized.
  const { data, info } = await pipeline
    .withDensity(300)
    .png({ compressionLevel: 1 })
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height };
}
