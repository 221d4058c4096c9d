import { getResolvedPDFJS } from 'unpdf';

/** The page of a pdf.js document, as far as collecting its images goes. */
export interface PdfPage {
  getOperatorList(): Promise<{ fnArray: number[]; argsArray: unknown[][] }>;
  getViewport(parameters: { scale: number }): { transform: number[]; width: number; height: number };
  objs: PdfObjects;
  commonObjs: PdfObjects;
}

interface PdfObjects {
  get(id: string, callback: (data: unknown) => void): void;
}

/** Decoded pixels as pdf.js hands them over in Node (no OffscreenCanvas): rows top to bottom. */
interface DecodedImage {
  width: number;
  height: number;
  /** pdf.js ImageKind: 1 = 1 bit grey (a set bit is white), 2 = RGB, 3 = RGBA; undefined for an image mask. */
  kind?: number;
  data: Uint8Array | Uint8ClampedArray;
}

/** A PDF matrix [a, b, c, d, e, f]: x' = a·x + c·y + e, y' = b·x + d·y + f. */
type Matrix = readonly [number, number, number, number, number, number];

interface PlacedImage {
  image: DecodedImage;
  /** Maps the image's unit square (PDF image space) to device space: page units, y down, /Rotate applied. */
  matrix: Matrix;
}

/** A greyscale raster of a page's images, one byte a pixel, 255 white. */
export interface PageRaster {
  pixels: Uint8Array;
  width: number;
  height: number;
  /** Pixels per inch of the page, so tesseract knows the size of the text. */
  dpi: number;
}

/**
 * An image smaller than this share of the page is a logo, an icon or a bullet, not a scan: OCR of it
 * costs time and yields noise. Scans split into strips still pass (a strip is rarely under 1/20).
 */
const minPageShare = 0.05;
/** Images narrower or lower than this many pixels hold no readable text. */
const minImageSide = 16;
/** The most pixels a raster may have: an A4 page at about 500 dpi, as the image extractor allows. */
export const maxRasterPixels = 25_000_000;
/** Below this, tesseract treats the resolution as unknown; report no less. */
const minDpi = 72;

const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

/**
 * Draws a page's images, and nothing else, into a greyscale raster, the way the page shows them:
 * placed, scaled, turned and mirrored by the drawing's transformation matrices and the page's
 * /Rotate. A scanned page is one image (or a few strips) of the whole page, so this is the page as
 * OCR needs it, without a canvas library: pdf.js decodes the images (JPEG, Flate, CCITT, JBIG2),
 * the operator list says where they go. Returns undefined when the page has no image worth reading.
 */
export async function rasterisePageImages(page: PdfPage): Promise<PageRaster | undefined> {
  const viewport = page.getViewport({ scale: 1 });
  const pageArea = viewport.width * viewport.height;
  const placed = (await collectImages(page, viewport.transform as unknown as Matrix)).filter(({ image, matrix }) => {
    const box = boundingBox(matrix);
    return (
      image.width >= minImageSide &&
      image.height >= minImageSide &&
      (box.right - box.left) * (box.bottom - box.top) >= minPageShare * pageArea
    );
  });
  if (placed.length === 0) return undefined;

  // The images' own resolution (pixels per page unit, the finest image's), so nothing is thrown
  // away, within the pixel budget; small text is upscaled later only where OCR needs it.
  const area = placed
    .map(({ matrix }) => boundingBox(matrix))
    .reduce((a, b) => ({
      left: Math.min(a.left, b.left),
      top: Math.min(a.top, b.top),
      right: Math.max(a.right, b.right),
      bottom: Math.max(a.bottom, b.bottom),
    }));
  const areaWidth = Math.max(1, area.right - area.left);
  const areaHeight = Math.max(1, area.bottom - area.top);
  // An image's columns run along (a, b) and its rows along (c, d), whatever way it is turned.
  const native = Math.max(
    ...placed.map(({ image, matrix }) =>
      Math.max(
        image.width / Math.max(1e-6, Math.hypot(matrix[0], matrix[1])),
        image.height / Math.max(1e-6, Math.hypot(matrix[2], matrix[3])),
      ),
    ),
  );
  const scale = Math.max(minDpi / 72, Math.min(native, Math.sqrt(maxRasterPixels / (areaWidth * areaHeight))));
  const width = Math.max(1, Math.round(areaWidth * scale));
  const height = Math.max(1, Math.round(areaHeight * scale));
  const pixels = new Uint8Array(width * height).fill(255);
  for (const { image, matrix } of placed) {
    // Raster pixel → page units → the image's unit square: one affine map, inverted once.
    const toRaster: Matrix = [scale, 0, 0, scale, -area.left * scale, -area.top * scale];
    drawImage(pixels, width, height, image, multiply(toRaster, matrix));
  }
  return { pixels, width, height, dpi: Math.max(minDpi, Math.round(scale * 72)) };
}

/** Walks the operator list keeping the current transformation matrix, and collects every image drawn. */
async function collectImages(page: PdfPage, deviceMatrix: Matrix): Promise<PlacedImage[]> {
  const { OPS } = await getResolvedPDFJS();
  const operators = await page.getOperatorList();
  const found: Array<{ pending: Promise<unknown>; matrix: Matrix }> = [];
  const stack: Matrix[] = [];
  let current = deviceMatrix;
  for (let index = 0; index < operators.fnArray.length; index += 1) {
    const args = operators.argsArray[index] ?? [];
    switch (operators.fnArray[index]) {
      case OPS.save:
        stack.push(current);
        break;
      case OPS.restore:
        current = stack.pop() ?? current;
        break;
      case OPS.transform:
        current = multiply(current, args as unknown as Matrix);
        break;
      case OPS.paintFormXObjectBegin:
        // A form is drawn inside its own save/restore, under its matrix.
        stack.push(current);
        if (Array.isArray(args[0]) && args[0].length === 6) current = multiply(current, args[0] as unknown as Matrix);
        break;
      case OPS.paintFormXObjectEnd:
        current = stack.pop() ?? current;
        break;
      case OPS.paintImageXObject:
        found.push({ pending: decodedObject(page, String(args[0])), matrix: current });
        break;
      case OPS.paintInlineImageXObject:
        found.push({ pending: Promise.resolve(args[0]), matrix: current });
        break;
      case OPS.paintImageMaskXObject: {
        // A stencil mask (1-bit scans are often drawn so) names its pixels by id, or holds them when inline.
        const mask = args[0] as { data: unknown };
        const pending = typeof mask.data === 'string' ? decodedObject(page, mask.data) : Promise.resolve(mask);
        found.push({
          pending: pending.then((decoded) => decoded && { ...(decoded as object), kind: undefined }),
          matrix: current,
        });
        break;
      }
      default:
        break;
    }
  }
  const placed: PlacedImage[] = [];
  for (const { pending, matrix } of found) {
    const image = asDecodedImage(await pending);
    if (image) placed.push({ image, matrix });
  }
  return placed;
}

/**
 * pdf.js hands over every image it was asked for, null when it could not
 * decode it; wait no longer than this all the same.
 */
const imageWaitMs = 30_000;

/**
 * A decoded image by id: images used on several pages live in the
 * document's objects ("g_" ids), the others in the page's.
 */
function decodedObject(page: PdfPage, id: string): Promise<unknown> {
  const objects = id.startsWith('g_') ? page.commonObjs : page.objs;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), imageWaitMs);
    timer.unref();
    objects.get(id, (data) => {
      clearTimeout(timer);
      resolve(data);
    });
  });
}

/** An image pdf.js could decode (it hands over null when it could not, e.g. JPEG 2000 without its WASM). */
function asDecodedImage(value: unknown): DecodedImage | undefined {
  const image = value as Partial<DecodedImage> | null | undefined;
  if (!image || !image.data || !(image.width! > 0) || !(image.height! > 0)) return undefined;
  if (image.kind !== undefined && ![1, 2, 3].includes(image.kind)) return undefined;
  return image as DecodedImage;
}

function boundingBox(matrix: Matrix): { left: number; top: number; right: number; bottom: number } {
  const xs = [0, 1].flatMap((x) => [0, 1].map((y) => matrix[0] * x + matrix[2] * y + matrix[4]));
  const ys = [0, 1].flatMap((x) => [0, 1].map((y) => matrix[1] * x + matrix[3] * y + matrix[5]));
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
}

/**
 * Draws one image into the raster by inverse mapping with nearest-neighbour sampling: every raster
 * pixel inside the image's box asks which image pixel lands there. Any affine placement works
 * (quarter turns, mirrors, a slight skew); images painted later cover earlier ones, as on the page.
 */
function drawImage(pixels: Uint8Array, width: number, height: number, image: DecodedImage, matrix: Matrix): void {
  const [a, b, c, d, e, f] = matrix;
  const determinant = a * d - b * c;
  if (Math.abs(determinant) < 1e-12) return;
  // Inverse of the matrix: raster (x, y) → unit square (s, t), t growing upwards.
  const ia = d / determinant;
  const ib = -b / determinant;
  const ic = -c / determinant;
  const id = a / determinant;
  const ie = (c * f - d * e) / determinant;
  const iff = (b * e - a * f) / determinant;
  const box = boundingBox(matrix);
  const x0 = Math.max(0, Math.floor(box.left));
  const x1 = Math.min(width, Math.ceil(box.right));
  const y0 = Math.max(0, Math.floor(box.top));
  const y1 = Math.min(height, Math.ceil(box.bottom));
  const grey = greyReader(image);
  for (let y = y0; y < y1; y += 1) {
    const cy = y + 0.5;
    for (let x = x0; x < x1; x += 1) {
      const cx = x + 0.5;
      const s = ia * cx + ic * cy + ie;
      const t = ib * cx + id * cy + iff;
      if (s < 0 || s >= 1 || t <= 0 || t > 1) continue;
      // The first row of an image is its top: t = 1.
      const column = Math.floor(s * image.width);
      const row = Math.floor((1 - t) * image.height);
      const value = grey(column, row);
      if (value >= 0) pixels[y * width + x] = value;
    }
  }
}

/**
 * A reader of one image pixel as grey (0 black … 255 white), or -1 where the image leaves the page
 * alone (the unpainted part of a stencil mask, a transparent pixel).
 */
function greyReader(image: DecodedImage): (column: number, row: number) => number {
  const { data, width, kind } = image;
  if (kind === undefined || kind === 1) {
    // One bit a pixel, rows padded to whole bytes; a set bit is white (in a mask: not painted).
    const stride = (width + 7) >> 3;
    const mask = kind === undefined;
    return (column, row) => {
      const bit = (data[row * stride + (column >> 3)]! >> (7 - (column & 7))) & 1;
      if (mask) return bit === 1 ? -1 : 0;
      return bit === 1 ? 255 : 0;
    };
  }
  const channels = kind === 2 ? 3 : 4;
  return (column, row) => {
    const at = (row * width + column) * channels;
    // Transparent enough pixels show what is under them; ITU-R BT.601 luma, as libvips and tesseract use.
    if (channels === 4 && data[at + 3]! < 128) return -1;
    return Math.round(0.299 * data[at]! + 0.587 * data[at + 1]! + 0.114 * data[at + 2]!);
  };
}
