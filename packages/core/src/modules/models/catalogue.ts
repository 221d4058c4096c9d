import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DocqaError } from '@docqa/plugin-api';

/** The catalogue shipped with DocQA; MODELS_CATALOGUE names another file of the same shape. */
export const bundledCataloguePath = fileURLToPath(new URL('../../../models/catalogue.json', import.meta.url));

/** Where `hf:` URIs point, as node-llama-cpp resolves them (its ModelDownloadEndpoints default). */
const huggingFaceEndpoint = 'https://huggingface.co/';

const entrySchema = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,99}$/, 'lower-case letters, digits, dot, dash and underscore'),
  /** `reranking`: a cross-encoder for RAG_RERANK_MODEL; it is never switched in with `docqa models use`. */
  purpose: z.enum(['chat', 'embedding', 'reranking']),
  tier: z.enum(['small', 'medium', 'large']).optional(),
  recommended: z.boolean().default(false),
  description: z.string().default(''),
  parameters: z.string().optional(),
  dimensions: z.number().int().positive().optional(),
  /** `hf:<user>/<repo>/<path/file.gguf>[#<revision>]`, or an http(s) URL of the file itself. */
  source: z.string().min(1),
  /** The name the file gets in MODELS_DIR; one .gguf file, no directories. */
  file: z.string().regex(/^[^/\\]+\.gguf$/i, 'a .gguf file name without a directory'),
  /** Exact byte count when the source publishes one: checked before the download is installed. */
  size_bytes: z.number().int().positive().optional(),
  /** As the model page shows it, for people choosing ("986 MB"). */
  size: z.string().optional(),
  quantization: z.string().optional(),
  context_length: z.number().int().positive().optional(),
  license: z.string().optional(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, '64 lower-case hex digits')
    .optional(),
  model_card: z.string().optional(),
  file_page: z.string().optional(),
  verified: z.boolean().default(false),
  unverified: z.array(z.string()).default([]),
  checked_at: z.string().optional(),
  note: z.string().optional(),
});

const catalogueSchema = z.object({ version: z.literal(1), models: z.array(entrySchema) });

export type CatalogueEntry = z.output<typeof entrySchema>;

export interface Catalogue {
  path: string;
  entries: CatalogueEntry[];
  find(name: string): CatalogueEntry | undefined;
  /** The entry whose file this is, so an installed file keeps its catalogue name and licence. */
  byFile(file: string): CatalogueEntry | undefined;
}

/** Reads and checks the catalogue; a broken file is one message naming the file and each problem. */
export function loadCatalogue(path: string = bundledCataloguePath): Catalogue {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(path, 'utf8'));
  } catch (error) {
    throw new DocqaError('unavailable', `Cannot read the model catalogue ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const parsed = catalogueSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new DocqaError('unavailable', `The model catalogue ${path} is not valid: ${problems}`);
  }
  const entries = parsed.data.models;
  const names = new Set<string>();
  for (const entry of entries) {
    if (names.has(entry.name))
      throw new DocqaError('unavailable', `The model catalogue ${path} lists ${entry.name} twice.`);
    names.add(entry.name);
    downloadUrl(entry); // a bad source is reported when the catalogue loads, not halfway through a pull
  }
  return {
    path,
    entries,
    find: (name) => entries.find((entry) => entry.name === name),
    byFile: (file) => entries.find((entry) => entry.file === file),
  };
}

/**
 * The URL a catalogue entry is fetched from. `hf:user/repo/dir/file.gguf#revision` is
 * node-llama-cpp's model URI for one file; it maps onto Hugging Face's `resolve/<revision>` URL
 * (revision `main` when none is given). Only the file form: the `hf:user/repo:Q4_K_M` form needs a
 * manifest lookup whose answer could change, and a catalogue must say exactly which file it means.
 */
export function downloadUrl(entry: Pick<CatalogueEntry, 'name' | 'source'>): string {
  const { source } = entry;
  if (/^https?:\/\//i.test(source)) return new URL(source).href;
  const match = /^hf:([^/\s#]+)\/([^/\s#]+)\/([^#\s]+\.gguf)(?:#([^\s#]+))?$/i.exec(source);
  if (!match) {
    throw new DocqaError(
      'unavailable',
      `Catalogue entry ${entry.name}: source "${source}" is neither ` +
        'hf:<user>/<repo>/<file>.gguf[#revision] nor an http(s) URL.',
    );
  }
  const [, user = '', repo = '', filePath = '', revision = 'main'] = match;
  const encodedPath = filePath.split('/').map(encodeURIComponent).join('/');
  const repoPath = `${encodeURIComponent(user)}/${encodeURIComponent(repo)}`;
  return `${huggingFaceEndpoint}${repoPath}/resolve/${encodeURIComponent(revision)}/${encodedPath}`;
}
