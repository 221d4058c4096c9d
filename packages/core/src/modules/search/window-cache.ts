import type { OpenWindow } from './term-windows.js';

/**
 * Which build windows belong to: the build's watermark and time. Only a build writes term_window,
 * replacing every window in the transaction that moves these (term-window-build.ts).
 */
export type WindowBuild = string;

interface Entry {
  windows: ReadonlyMap<number, OpenWindow>;
  bytes: number;
}

/**
 * Opened windows of one build, by term, within a byte budget, the least recently used dropped
 * first. The terms queries name most are the frequent ones, whose windows cost the most to read:
 * at a million chunks each of the 20 most frequent words has 16 windows of ~55 kB, read as hex
 * text and opened on every query (most of a frequent-word query's time). A read that finds a
 * newer build starts the cache over, so a window is only ever answered for the build it came from.
 */
export class TermWindowCache {
  #build: WindowBuild | null = null;
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(readonly budgetBytes: number) {}

  /** The build whose windows are held, if any. */
  get build(): WindowBuild | null {
    return this.#build;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** The term's windows of `build`, now the most recently used; undefined when not held. */
  get(build: WindowBuild, term: string): ReadonlyMap<number, OpenWindow> | undefined {
    if (build !== this.#build) return undefined;
    const entry = this.#entries.get(term);
    if (!entry) return undefined;
    this.#entries.delete(term);
    this.#entries.set(term, entry);
    return entry.windows;
  }

  set(build: WindowBuild, term: string, windows: ReadonlyMap<number, OpenWindow>): void {
    if (build !== this.#build) {
      this.#entries.clear();
      this.#bytes = 0;
      this.#build = build;
    }
    const bytes = [...windows.values()].reduce((sum, window) => sum + openWindowBytes(window), 0);
    if (bytes > this.budgetBytes) return;
    const previous = this.#entries.get(term);
    if (previous) this.#bytes -= previous.bytes;
    this.#entries.delete(term);
    this.#entries.set(term, { windows, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.budgetBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
  }
}

/** An opened window's memory: its payload copy (bitmap, tf, lengths) and its rank table. */
function openWindowBytes(window: OpenWindow): number {
  return window.bits.byteLength + window.tf.byteLength + window.lengths.byteLength + window.rankBefore.byteLength;
}
