/**
 * CPU time a bench stage costs, so the whole pipeline can be held against what the machine's cores
 * allow: when every stage is CPU-bound on the same cores, overlapping them cannot make the
 * pipeline faster than cores ÷ (the stages' CPU seconds per chunk, summed). Two counts:
 * - `machine`: busy time of every core (/proc/stat), so a PostgreSQL server's backends count too;
 *   it is only this bench's on a machine with nothing else running;
 * - `process`: this process's own, every thread (process.cpuUsage): llama.cpp's threads, the
 *   extraction workers and, on the embedded database, PGlite;
 * - `mainThread`: the share of `process` spent on the main thread, where the server's JavaScript
 *   and, on the embedded database, every SQL statement run. The pipeline's stages overlap only as
 *   far as this thread lets them: a stage that needs it waits while another holds it.
 * Spinning counts as busy: llama.cpp's threads wait for each other at a barrier by spinning, and
 * that time is a core's as much as arithmetic is.
 */
import fs from 'node:fs';
import os from 'node:os';

export interface CpuTime {
  /** Seconds of busy core time, all cores of the machine; null where /proc/stat is missing. */
  machine: number | null;
  /** Seconds of this process's CPU time, user and system. */
  process: number;
  /** Seconds of CPU time of this process's main thread; null where /proc is missing. */
  mainThread: number | null;
}

/** The kernel's clock ticks in /proc/stat: USER_HZ, 100 on every Linux architecture node runs on. */
const ticksPerSecond = 100;

/** Busy seconds of all cores since boot: everything in the first `cpu` line but idle and iowait. */
function machineBusySeconds(): number | null {
  let line: string;
  try {
    line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  } catch {
    return null;
  }
  // user nice system idle iowait irq softirq steal (guest time is already inside user and nice).
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / ticksPerSecond;
}

/** The main thread's user and system time (/proc/self/task/<pid>/stat, fields 14 and 15), in seconds. */
function mainThreadSeconds(): number | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name, field 2, is in parentheses and may hold spaces: count fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

function now(): CpuTime {
  const usage = process.cpuUsage();
  return { machine: machineBusySeconds(), process: (usage.user + usage.system) / 1e6, mainThread: mainThreadSeconds() };
}

/** A count that was missing at any reading stays missing: a partial sum would read as a figure. */
function addInterval(total: number | null, from: number | null, to: number | null): number | null {
  return total === null || from === null || to === null ? null : total + (to - from);
}

/** Adds up the CPU time of the intervals between each start() and the stop() it returns. */
export class CpuMeter {
  machine: number | null = 0;
  process = 0;
  mainThread: number | null = 0;

  start(): () => void {
    const from = now();
    return () => {
      const to = now();
      this.machine = addInterval(this.machine, from.machine, to.machine);
      this.process += to.process - from.process;
      this.mainThread = addInterval(this.mainThread, from.mainThread, to.mainThread);
    };
  }

  /** Measures one whole interval: the time `work` takes. */
  async around<T>(work: () => Promise<T>): Promise<T> {
    const stop = this.start();
    try {
      return await work();
    } finally {
      stop();
    }
  }
}

/**
 * The fastest the whole pipeline can go when its stages share the machine's cores and each costs
 * the CPU it cost alone: cores ÷ Σ (CPU seconds per chunk of each stage), in chunks per second.
 * Null when a stage has no machine-wide count.
 */
export function overlapBound(
  stages: ReadonlyArray<{ cpu: CpuTime; items: number }>,
  cores = os.availableParallelism(),
): number | null {
  let secondsPerChunk = 0;
  for (const stage of stages) {
    if (stage.cpu.machine === null || stage.items === 0) return null;
    secondsPerChunk += stage.cpu.machine / stage.items;
  }
  return secondsPerChunk > 0 ? cores / secondsPerChunk : null;
}
