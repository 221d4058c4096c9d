import sharp, { type Sharp } from 'sharp';
import { DocqaError } from '@docqa/plugin-api';
import {
  defaultOcrLanguages,
  meanConfidence,
  recognisePng,
  traineddataFile,
  type OcrJob,
  type PageText,
} from '@docqa/ocr';
import { maxRasterPixels, rasterisePageImages, type PageRaster, type PdfPage } from './page-images.js';

export type { PageText } from '@docqa/ocr';
export type { PdfPage } from './page-images.js';

/**
 * Tesseract reads best when a line of text is at least this tall; smaller text gets upscaled (as in extractor-image).
 */
const minTextHeightPx = 30;
/** The line height an upscale aims for, a margin above the minimum. */
const targetTextHeightPx = 40;
/** Upscaling further than this invents no detail; the result only gets slower to read. */
const maxUpscale = 4;

export type { OcrJob } from '@docqa/ocr';

interface OcrImage {
  /** Greyscale PNG, as tesseract reads it. */
  png: Buffer;
  width: number;
  height: number;
  dpi: number;
}

/**
 * The languages to read, checked before any page is opened, so a missing language fails at once
 * with the package to install (validation_failed) instead of after parsing the whole file.
 */
export async function ocrLanguages(requested: readonly string[]): Promise<string[]> {
  const languages = [...new Set(requested.length > 0 ? requested : defaultOcrLanguages)];
  for (const code of languages) await traineddataFile(code);
  return languages;
}

/** OCR of the images of one page; undefined when the page has no image large enough to hold text. */
export async function readPageImages(page: PdfPage, pageNumber: number, job: OcrJob): Promise<PageText | undefined> {
  let raster: PageRaster | undefined;
  try {
    raster = await rasterisePageImages(page);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DocqaError(
      'unsupported_media_type',
      `${job.filename} is not a readable PDF (images of page ${pageNumber}): ${reason}`,
      { cause: error },
    );
  }
  if (!raster) return undefined;
  const image = await encode(
    sharp(raster.pixels, { raw: { width: raster.width, height: raster.height, channels: 1 } }),
    raster.dpi,
  );
  return readImage(image, pageNumber, job);
}

/**
 * When the text turns out smaller than tesseract reads well (a scan at low resolution), the page is
 * upscaled and read again, and the more confident reading wins: a second pass only where needed.
 */
async function readImage(image: OcrImage, pageNumber: number, job: OcrJob): Promise<PageText> {
  const first = await recognise(image, pageNumber, job);
  const factor = upscaleFactor(first.lineHeight, image);
  if (factor === 1) return first;
  const larger = await encode(
    sharp(image.png).resize({ width: Math.round(image.width * factor), kernel: 'lanczos3' }),
    image.dpi * factor,
  );
  const second = await recognise(larger, pageNumber, job);
  return meanConfidence(second.wordConfidences) >= meanConfidence(first.wordConfidences) ||
    first.paragraphs.length === 0
    ? second
    : first;
}

/**
 * The factor that brings text of `textHeight` pixels to the target height,
 * within the pixel budget; 1 when it is tall enough.
 */
function upscaleFactor(textHeight: number, image: { width: number; height: number }): number {
  if (textHeight >= minTextHeightPx || textHeight <= 0) return 1;
  const wanted = Math.min(maxUpscale, targetTextHeightPx / textHeight);
  const allowed = Math.sqrt(maxRasterPixels / Math.max(1, image.width * image.height));
  const factor = Math.min(wanted, allowed);
  // Less than a quarter larger is not worth a second recognition.
  return factor >= 1.25 ? factor : 1;
}

async function encode(pipeline: Sharp, dpi: number): Promise<OcrImage> {
  // Fast compression: the PNG lives for one recognition. The resolution is the page's real one, so
  // tesseract's size heuristics see the text at its true size.
  const { data, info } = await pipeline
    .withDensity(Math.round(dpi))
    .png({ compressionLevel: 1 })
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height, dpi };
}

function recognise(image: OcrImage, pageNumber: number, job: OcrJob): Promise<PageText> {
  return recognisePng(image.png, job, `page ${pageNumber}`);
}
