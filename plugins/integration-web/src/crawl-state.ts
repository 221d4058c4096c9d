import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What the crawler remembers about one indexed page, keyed by its canonical URL. */
export interface PageState {
  /** The URL fetched (it differs from the key when the page names another canonical URL). */
  url: string;
  etag?: string;
  lastModified?: string;
  sha256: string;
  /**
   * The page's same-site links. A 304 answer has no body, so without them an unchanged page would
   * hide every page linked only from it, and the crawl would delete those pages.
   */
  links: string[];
}

export interface Generation {
  id: string;
  createdAt: string;
  pages: Record<string, PageState>;
}

interface StateFile {
  version: 1;
  /** Newest first. */
  generations: Generation[];
}

/**
 * The cursor names a generation of this file. Two are kept: the sync writes its generation before
 * yielding the checkpoint, and if DocQA never stores that checkpoint (a crash, a failed job) the
 * next sync comes back with the previous cursor, which must still be found.
 */
const generationsKept = 2;

export class CrawlStateStore {
  readonly file: string;

  constructor(stateDir: string, sourceId: string) {
    // encodeURIComponent: a source id is a UUID in practice, but a file name must never be a path.
    this.file = path.join(stateDir, `${encodeURIComponent(sourceId)}.json`);
  }

  async findGeneration(id: string): Promise<Generation | undefined> {
    return (await this.read())?.generations.find((generation) => generation.id === id);
  }

  /** Adds a generation and returns its id (the next cursor). Written atomically: a crash leaves the old file. */
  async save(pages: Record<string, PageState>): Promise<string> {
    const previous = (await this.read())?.generations ?? [];
    const generation: Generation = { id: crypto.randomUUID(), createdAt: new Date().toISOString(), pages };
    const state: StateFile = { version: 1, generations: [generation, ...previous].slice(0, generationsKept) };
    await fs.promises.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      await fs.promises.writeFile(temporary, JSON.stringify(state), { mode: 0o600 });
      await fs.promises.rename(temporary, this.file);
    } catch (error) {
      await fs.promises.rm(temporary, { force: true });
      throw error;
    }
    return generation.id;
  }

  private async read(): Promise<StateFile | undefined> {
    let text: string;
    try {
      text = await fs.promises.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const state = JSON.parse(text) as StateFile;
      return state.version === 1 && Array.isArray(state.generations) ? state : undefined;
    } catch {
      // A damaged state file costs one full crawl, not a failed sync.
      return undefined;
    }
  }
}
