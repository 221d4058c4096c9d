import { createHash, randomUUID } from 'node:crypto';
import { access, lstat, mkdir, rename, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DocqaError } from '@docqa/plugin-api';

// Resolves packages from this plugin's own node_modules, wherever the server runs from.
const require = createRequire(import.meta.url);

/** Tesseract language codes: `eng`, `chi_sim`, `deu_latf`. Anything else is not looked up at all. */
const languageCodePattern = /^[a-z]{3}(_[a-z]+)*$/;

/** When INDEXING_OCR_LANGUAGES is empty, read English, as its default does. */
export const defaultOcrLanguages: readonly string[] = ['eng'];

function notInstalled(code: string, cause?: unknown): DocqaError {
  return new DocqaError(
    'validation_failed',
    `OCR language "${code}" is not installed (npm package @tesseract.js-data/${code})`,
    cause === undefined ? {} : { cause },
  );
}

/**
 * The gzipped traineddata file of one `@tesseract.js-data/<code>` package. We prefer the
 * LSTM-only `4.0.0_best_int` model (what tesseract.js itself fetches for the LSTM engine: about a
 * quarter the size of the full model and faster to load); packages without it fall back to the
 * directory their index.js names, which holds the full model (LSTM and legacy).
 */
export async function traineddataFile(code: string): Promise<string> {
  if (!languageCodePattern.test(code)) throw notInstalled(code);
  let packageDir: string;
  let declared: { langPath?: string; gzip?: boolean };
  try {
    packageDir = dirname(require.resolve(`@tesseract.js-data/${code}/package.json`));
    declared = require(`@tesseract.js-data/${code}`) as typeof declared;
  } catch (error) {
    throw notInstalled(code, error);
  }
  const candidates = [join(packageDir, '4.0.0_best_int', `${code}.traineddata.gz`)];
  if (declared.langPath)
    candidates.push(join(declared.langPath, `${code}.traineddata${declared.gzip === false ? '' : '.gz'}`));
  for (const candidate of candidates) {
    if (
      await access(candidate).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  throw notInstalled(code);
}

/**
 * tesseract.js reads every language of a worker from one `langPath` directory, but each language
 * ships in its own package, so we link the packages' files into one directory. (Passing the data
 * itself as `{ code, data }` does not work in tesseract.js 7: `initialize` then hands Tesseract the
 * bytes where it expects the code.) The directory's name derives from the user and the files linked,
 * so every thread and every restart reuses it: a thread the pipeline terminates leaves nothing
 * behind. The files are gzipped; the worker detects gzip by its magic bytes, so a package shipping
 * plain traineddata works as well.
 */
export async function stageLanguages(codes: readonly string[]): Promise<string> {
  const files = await Promise.all(codes.map(async (code) => ({ code, file: await traineddataFile(code) })));
  const fingerprint = createHash('sha256').update(JSON.stringify(files)).digest('hex').slice(0, 16);
  const langPath = join(tmpdir(), `docqa-ocr-languages-${process.getuid?.() ?? 'user'}-${fingerprint}`);
  try {
    await mkdir(langPath, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    await checkOwnDirectory(langPath);
    for (const { code, file } of files) {
      // Linked under a unique name, then renamed into place: atomic, and it replaces whatever was there.
      const temporary = join(langPath, `.${code}.${process.pid}.${randomUUID()}`);
      await symlink(file, temporary);
      await rename(temporary, join(langPath, `${code}.traineddata.gz`));
    }
  } catch (error) {
    throw new DocqaError(
      'internal',
      `Could not prepare the OCR language files in ${langPath}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return langPath;
}

/** The directory sits in the shared temporary directory: it must be ours, and no one else may write to it. */
async function checkOwnDirectory(path: string): Promise<void> {
  const stats = await lstat(path);
  const uid = process.getuid?.();
  if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid) || (stats.mode & 0o022) !== 0) {
    throw new Error(`${path} is not a private directory of this user; remove it`);
  }
}
