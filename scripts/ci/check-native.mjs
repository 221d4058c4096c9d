// Loads and uses each native or WebAssembly dependency of DocQA on the running Node.js, so that a
// Node upgrade that breaks one fails CI in seconds with its name (.ci/run runs this on Node 24 and
// on Node 22). From the repository root, after `npm ci && npm run build`:
//
//   node scripts/ci/check-native.mjs
//
// CHECK_NATIVE_SAVE_PNG=FILE keeps the image it drew (with the system's DejaVu font); CHECK_NATIVE_PNG=FILE
// reads that image instead of drawing one, where no fonts are installed (DocQA's image: the stack test).
import { readFileSync, writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import sharp from 'sharp';
import { getLlama } from 'node-llama-cpp';
import { recognisePng, stopOcrWorkers } from '@docqa/ocr';

const checks = [];
async function check(name, run) {
  const started = performance.now();
  try {
    const detail = await run();
    checks.push(`  ok   ${name}: ${detail} (${Math.round(performance.now() - started)} ms)`);
  } catch (error) {
    checks.push(`  FAIL ${name}: ${error?.stack ?? error}`);
  }
}

let png;
await check('sharp (libvips)', async () => {
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="700" height="120"><rect width="100%" height="100%" fill="#fafafa"/>' +
      '<text x="20" y="80" font-family="DejaVu Sans, sans-serif" font-size="48" fill="#111">Quarterly invoices</text></svg>',
  );
  png = process.env.CHECK_NATIVE_PNG ? readFileSync(process.env.CHECK_NATIVE_PNG) : await sharp(svg).png().toBuffer();
  if (process.env.CHECK_NATIVE_SAVE_PNG) writeFileSync(process.env.CHECK_NATIVE_SAVE_PNG, png);
  const meta = await sharp(png).metadata();
  if (meta.width !== 700 || meta.format !== 'png') throw new Error(`unexpected ${JSON.stringify(meta)}`);
  return `sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}, ${process.env.CHECK_NATIVE_PNG ? 'read' : 'rendered'} a ${meta.width}x${meta.height} PNG`;
});

await check('@electric-sql/pglite with pgvector', async () => {
  const db = await PGlite.create({ extensions: { vector } });
  try {
    await db.exec('CREATE EXTENSION IF NOT EXISTS vector');
    const { rows } = await db.query("SELECT version() AS v, '[1,2,2]'::vector <-> '[1,2,3]'::vector AS d");
    if (Number(rows[0].d) !== 1) throw new Error(`distance ${rows[0].d}`);
    return `${String(rows[0].v).split(' on ')[0]}, vector distance ${rows[0].d}`;
  } finally {
    await db.close();
  }
});

await check('tesseract.js (WebAssembly OCR, bundled English data)', async () => {
  if (!png) throw new Error('no image (sharp failed)');
  try {
    const page = await recognisePng(png, { filename: 'check.png', languages: ['eng'] });
    const text = page.paragraphs.join(' ');
    if (!/invoices/i.test(text)) throw new Error(`read "${text}"`);
    return `read "${text}"`;
  } finally {
    await stopOcrWorkers();
  }
});

await check('node-llama-cpp (prebuilt llama.cpp, CPU)', async () => {
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  try {
    return `binding loaded, gpu ${llama.gpu}, ${llama.cpuMathCores} math cores, llama.cpp ${llama.llamaCppRelease.release}`;
  } finally {
    await llama.dispose();
  }
});

console.log(`native dependencies on Node ${process.version}:`);
console.log(checks.join('\n'));
process.exit(checks.some((line) => line.startsWith('  FAIL')) ? 1 : 0);
