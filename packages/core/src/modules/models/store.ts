import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DocqaError } from '@docqa/plugin-api';
import { bundledCataloguePath, downloadUrl, loadCatalogue, type Catalogue, type CatalogueEntry } from './catalogue.js';
import { download, sha256Of, type DownloadOptions, type DownloadProgress, type DownloadResult } from './download.js';
import { inspectGguf, type GgufSummary } from './gguf.js';

/** An installed model: a verified .gguf file in MODELS_DIR, named after its catalogue entry when it has one. */
export interface InstalledModel {
  name: string;
  path: string;
  /** `reranking` models serve RAG_RERANK_MODEL; only chat and embedding models are switched with `use`. */
  purpose: 'chat' | 'embedding' | 'reranking';
  catalogue: CatalogueEntry | null;
  gguf: GgufSummary;
  license: string | null;
}

/** The two variables that place models, as configuration values or raw environment strings. */
export interface ModelPaths {
  modelsDir: string;
  cataloguePath: string;
}

/**
 * MODELS_DIR (default `<data dir>/models`) and MODELS_CATALOGUE (default the shipped file), resolved
 * against cwd. `variable` reads the validated configuration (a kernel's values, or the CLI's).
 */
export function modelPaths(
  variable: (name: 'MODELS_DIR' | 'MODELS_CATALOGUE') => unknown,
  dataDir: string,
  cwd: string,
): ModelPaths {
  const dir = variable('MODELS_DIR');
  const catalogue = variable('MODELS_CATALOGUE');
  return {
    modelsDir: path.resolve(cwd, typeof dir === 'string' ? dir : path.join(dataDir, 'models')),
    cataloguePath: typeof catalogue === 'string' ? path.resolve(cwd, catalogue) : bundledCataloguePath,
  };
}

export interface PullOptions {
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  retryDelayMs?: number;
  fetch?: DownloadOptions['fetch'];
}

/**
 * The models directory: what is installed, and the only ways a file gets there (pull, import),
 * both of which write a temporary file beside the final one and rename it after every check.
 */
export class ModelStore {
  readonly catalogue: Catalogue;

  constructor(readonly paths: ModelPaths) {
    this.catalogue = loadCatalogue(paths.cataloguePath);
  }

  get dir(): string {
    return this.paths.modelsDir;
  }

  /** Every .gguf file in MODELS_DIR that reads as a model; unreadable files are left out with no error. */
  async list(): Promise<InstalledModel[]> {
    const names = await fsp.readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    const models: InstalledModel[] = [];
    for (const file of names.filter((name) => name.toLowerCase().endsWith('.gguf')).sort()) {
      const model = await this.#describe(file).catch(() => null);
      if (model) models.push(model);
    }
    return models;
  }

  /** An installed model by catalogue name, file name, or file name without `.gguf`. */
  async find(name: string): Promise<InstalledModel | null> {
    const entry = this.catalogue.find(name);
    const candidates = entry ? [entry.file] : [name, `${name}.gguf`];
    for (const file of candidates) {
      if (!/^[^/\\]+\.gguf$/i.test(file) || !fs.existsSync(path.join(this.dir, file))) continue;
      return this.#describe(file);
    }
    return null;
  }

  async require(name: string): Promise<InstalledModel> {
    const model = await this.find(name);
    if (!model) {
      const hint = this.catalogue.find(name) ? `pull it first: docqa models pull ${name}` : 'see docqa models list';
      // The API answers this message: it names no directory of the server (MODELS_DIR says where).
      throw new DocqaError('not_found', `Model ${name} is not installed; ${hint}.`);
    }
    return model;
  }

  entry(name: string): CatalogueEntry {
    const entry = this.catalogue.find(name);
    if (!entry)
      throw new DocqaError(
        'not_found',
        `${name} is not in the model catalogue; known: ${this.catalogue.entries.map((e) => e.name).join(', ')}.`,
      );
    return entry;
  }

  /** Downloads a catalogue model, resuming a `.part` left by an earlier attempt. */
  async pull(name: string, options: PullOptions = {}): Promise<{ model: InstalledModel; download: DownloadResult }> {
    const entry = this.entry(name);
    const destination = path.join(this.dir, entry.file);
    if (fs.existsSync(destination))
      throw new DocqaError(
        'conflict',
        `${name} is installed already (${destination}); remove it first to pull it again.`,
      );
    const result = await download({
      url: downloadUrl(entry),
      destination,
      ...(entry.size_bytes !== undefined ? { expectedBytes: entry.size_bytes } : {}),
      ...(entry.sha256 ? { sha256: entry.sha256 } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.retryDelayMs !== undefined ? { retryDelayMs: options.retryDelayMs } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      verify: async (part) => {
        const summary = await inspectGguf(part);
        if (summary.purpose !== entry.purpose)
          throw new DocqaError(
            'validation_failed',
            `${name} is listed as a ${entry.purpose} model but the file is a ` +
              `${summary.purpose} model (${summary.architecture}).`,
          );
      },
    });
    return { model: await this.#describe(entry.file), download: result };
  }

  /**
   * Puts a local .gguf into MODELS_DIR for installs without Internet access: a hard link when asked
   * and on the same file system (no second copy of gigabytes), otherwise a copy through a temporary file.
   */
  async import(
    source: string,
    options: { name?: string; link?: boolean; force?: boolean } = {},
  ): Promise<InstalledModel & { linked: boolean }> {
    const summary = await inspectGguf(source);
    const file = options.name ? `${options.name.replace(/\.gguf$/i, '')}.gguf` : path.basename(source);
    if (!/^[^/\\]+\.gguf$/i.test(file)) throw new DocqaError('validation_failed', `${file} is not a .gguf file name.`);
    // A file named as a catalogue model is that model (its name and licence are shown): it must be its bytes.
    const entry = this.catalogue.byFile(file);
    if (entry?.sha256) {
      const digest = await sha256Of(source);
      if (digest !== entry.sha256)
        throw new DocqaError(
          'validation_failed',
          `${source} is named like the catalogue model ${entry.name}, but its SHA-256 is ` +
            `${digest}, not ${entry.sha256}; import it under another --name.`,
        );
    }
    const destination = path.join(this.dir, file);
    if (path.resolve(source) === destination) throw new DocqaError('conflict', `${source} is in MODELS_DIR already.`);
    if (fs.existsSync(destination) && !options.force)
      throw new DocqaError('conflict', `${destination} exists already; pass --force to replace it.`);
    await fsp.mkdir(this.dir, { recursive: true });
    const temporary = `${destination}.import-${process.pid}`;
    let linked = false;
    try {
      if (options.link) {
        try {
          await fsp.link(source, temporary);
          linked = true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EXDEV' && (error as NodeJS.ErrnoException).code !== 'EPERM')
            throw error;
        }
      }
      if (!linked) await pipeline(fs.createReadStream(source), fs.createWriteStream(temporary, { flags: 'wx' }));
      if (!linked) {
        const handle = await fsp.open(temporary, 'r+');
        await handle.sync().finally(() => handle.close());
      }
      await fsp.rename(temporary, destination);
    } catch (error) {
      await fsp.rm(temporary, { force: true });
      throw error;
    }
    const model = await this.#describe(file);
    if (model.gguf.sizeBytes !== summary.sizeBytes)
      throw new DocqaError('internal', `Importing ${source} gave a file of another size.`);
    return { ...model, linked };
  }

  async remove(name: string): Promise<InstalledModel> {
    const model = await this.require(name);
    await fsp.rm(model.path);
    return model;
  }

  async #describe(file: string): Promise<InstalledModel> {
    const full = path.join(this.dir, file);
    const gguf = await inspectGguf(full);
    const entry = this.catalogue.byFile(file) ?? null;
    return {
      name: entry?.name ?? file.replace(/\.gguf$/i, ''),
      path: full,
      purpose: entry?.purpose ?? gguf.purpose,
      catalogue: entry,
      gguf,
      license: entry?.license ?? gguf.license,
    };
  }
}
