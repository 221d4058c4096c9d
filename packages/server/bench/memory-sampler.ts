/**
 * Peak memory of this process per bench phase, as an operator sees it: the resident set of the
 * whole process (every thread, worker threads included, and native memory such as llama.cpp's or
 * a WebAssembly heap) plus what its child processes add to it (their private pages), sampled every
 * 100 ms, with what made up the
 * resident set at each phase's peak, so a figure over budget points at its cause:
 * - `js heap`: V8's heap of the main thread (heapTotal);
 * - `buffers`: memory outside the heap held by JS objects (Buffers, typed arrays: `arrayBuffers`);
 * - `wasm`: WebAssembly memories (PGlite's PostgreSQL), resident pages of their reservations;
 * - `files`: mapped files (code, node-llama-cpp's mapped model);
 * - `other`: the rest — native allocations, worker threads' heaps, thread stacks.
 * The breakdown reads /proc/self/smaps (Linux only; elsewhere only the totals are shown).
 */
import fs from 'node:fs';

export interface MemoryBreakdown {
  /** This process's resident set and its child processes' private pages. */
  rss: number;
  children: number;
  jsHeap: number;
  buffers: number;
  wasm: number;
  files: number;
  other: number;
}

/**
 * V8 reserves several GiB of address space per WebAssembly memory and makes only its current size
 * accessible: in smaps a read-write mapping directly followed by an inaccessible one of at least
 * 4 GiB (the guard). Nothing else maps that much at once.
 */
const wasmGuardBytes = 4 * 2 ** 30;

/** Resident bytes of WebAssembly memories and of mapped files, from /proc/self/smaps; null where there is none. */
function mappings(): { wasm: number; files: number } | null {
  let text: string;
  try {
    text = fs.readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return null;
  }
  let wasm = 0;
  let files = 0;
  // The previous anonymous read-write mapping: where it ends and its resident bytes.
  let previous: { end: bigint; rss: number } | null = null;
  let current: { start: bigint; end: bigint; size: number; file: boolean; writable: boolean; rss: number } | null =
    null;
  const close = () => {
    if (!current) return;
    if (current.file) files += current.rss;
    else if (!current.writable && current.size >= wasmGuardBytes && previous?.end === current.start)
      wasm += previous.rss;
    previous = !current.file && current.writable ? { end: current.end, rss: current.rss } : null;
  };
  for (const line of text.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)/.exec(line);
    if (header) {
      close();
      const start = BigInt(`0x${header[1]}`);
      const end = BigInt(`0x${header[2]}`);
      current = {
        start,
        end,
        size: Number(end - start),
        file: header[4] !== '0',
        writable: header[3]!.startsWith('rw'),
        rss: 0,
      };
    } else if (current && line.startsWith('Rss:')) {
      current.rss = Number(/(\d+)/.exec(line)![1]) * 1024;
    }
  }
  close();
  return { wasm, files };
}

/**
 * What a child process adds to the memory in use: its private resident pages (USS). Its resident set
 * would count again the pages it shares with this process, above all node's executable, which both
 * map from the same file: node-llama-cpp's binary check (a forked node, 76-85 MB resident) shares
 * about 43 MB of them, so adding its resident set to ours counted those pages twice. Its VmRSS
 * where smaps_rollup is missing (kernels before 4.14).
 */
function privateBytes(pid: string): number {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0) * 1024;
    return field('Private_Clean') + field('Private_Dirty');
  } catch {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  }
}

/**
 * Private resident bytes of this process's descendants (a child that creates the embedded database,
 * node-llama-cpp's binary check): 0 where /proc is missing.
 */
export function childrenRss(pid = process.pid): number {
  let total = 0;
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const task of tasks) {
    let children: string[];
    try {
      children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean);
    } catch {
      continue;
    }
    for (const child of children) {
      try {
        total += privateBytes(child) + childrenRss(Number(child));
      } catch {
        // The child has just exited.
      }
    }
  }
  return total;
}

export function memoryBreakdown(): MemoryBreakdown {
  const usage = process.memoryUsage();
  const mapped = mappings() ?? { wasm: 0, files: 0 };
  const jsHeap = usage.heapTotal;
  // A WebAssembly memory counts in `external` at its full size, resident or not: leave it out there.
  const buffers = Math.max(0, usage.arrayBuffers);
  const children = childrenRss();
  return {
    rss: usage.rss + children,
    children,
    jsHeap,
    buffers,
    ...mapped,
    other: Math.max(0, usage.rss - jsHeap - buffers - mapped.wasm - mapped.files),
  };
}

export class MemorySampler {
  /** Per phase: the breakdown taken at (or just after) its highest resident set. */
  readonly peaks = new Map<string, MemoryBreakdown>();
  #phase = 'start-up';
  #lastBreakdown = 0;
  readonly #timer = setInterval(() => this.sample(), 100);

  /** Ends the current phase (printing its peak when `report` is given) and starts the next. */
  phase(name: string, report?: (line: string) => void): void {
    this.sample(true);
    const peak = this.peaks.get(this.#phase);
    if (report && peak) report(`  peak RSS of ${this.#phase}: ${mb(peak.rss)} (${describeBreakdown(peak)})`);
    this.#phase = name;
  }

  sample(force = false): void {
    const rss = process.memoryUsage.rss() + childrenRss();
    const peak = this.peaks.get(this.#phase);
    if (peak && rss <= peak.rss) return;
    // Reading smaps takes milliseconds: at most once a second, and at phase ends; in between only the total moves.
    const now = Date.now();
    if (force || !peak || now - this.#lastBreakdown >= 1000) {
      this.#lastBreakdown = now;
      const breakdown = memoryBreakdown();
      this.peaks.set(this.#phase, { ...breakdown, rss: Math.max(rss, breakdown.rss) });
    } else {
      peak.rss = rss;
    }
  }

  stop(): void {
    clearInterval(this.#timer);
    this.sample(true);
  }

  /** The highest resident set over every phase. */
  get peak(): number {
    return Math.max(...[...this.peaks.values()].map((peak) => peak.rss));
  }
}

export const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

export function describeBreakdown(peak: MemoryBreakdown): string {
  return `js heap ${mb(peak.jsHeap)}, buffers ${mb(peak.buffers)}, wasm ${mb(peak.wasm)}, files ${mb(peak.files)}, other ${mb(peak.other)}${peak.children > 0 ? `, child processes ${mb(peak.children)}` : ''}`;
}
