import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface GpuInfo {
  vendor: 'nvidia';
  name: string;
  /** The driver's bus id, which tells two identical cards apart. */
  bus_id: string | null;
}

export interface HardwareInfo {
  cpu: { model: string; cores: number; architecture: string; load_average: number[] };
  memory: { total_bytes: number; available_bytes: number; process_rss_bytes: number };
  gpus: GpuInfo[];
  /** Whether inference may use a CUDA GPU (N_GPU_LAYERS applies only then). */
  cuda_available: boolean;
  platform: string;
  node_version: string;
}

/** The NVIDIA kernel driver lists one directory per GPU here; no tool or library is needed to read it. */
const nvidiaDriverDir = '/proc/driver/nvidia/gpus';

export async function readHardware(): Promise<HardwareInfo> {
  const cpus = os.cpus();
  const gpus = await readNvidiaGpus();
  return {
    cpu: {
      model: cpus[0]?.model.trim() ?? 'unknown',
      cores: os.availableParallelism(),
      architecture: os.arch(),
      load_average: os.loadavg().map((value) => Math.round(value * 100) / 100),
    },
    memory: {
      total_bytes: os.totalmem(),
      available_bytes: await availableMemory(),
      process_rss_bytes: process.memoryUsage.rss(),
    },
    gpus,
    cuda_available: gpus.length > 0,
    platform: `${os.type()} ${os.release()}`,
    node_version: process.version,
  };
}

async function readNvidiaGpus(): Promise<GpuInfo[]> {
  let entries: string[];
  try {
    entries = await fs.readdir(nvidiaDriverDir);
  } catch {
    return [];
  }
  const gpus = await Promise.all(
    entries.map(async (busId) => {
      const information = await fs.readFile(path.join(nvidiaDriverDir, busId, 'information'), 'utf8').catch(() => '');
      const model = /^Model:\s*(.+)$/m.exec(information)?.[1]?.trim();
      return { vendor: 'nvidia' as const, name: model ?? 'NVIDIA GPU', bus_id: busId };
    }),
  );
  return gpus.sort((a, b) => (a.bus_id ?? '').localeCompare(b.bus_id ?? ''));
}

/** MemAvailable counts reclaimable cache, which os.freemem() does not; Linux only, freemem elsewhere. */
async function availableMemory(): Promise<number> {
  const meminfo = await fs.readFile('/proc/meminfo', 'utf8').catch(() => '');
  const kib = /^MemAvailable:\s+(\d+) kB$/m.exec(meminfo)?.[1];
  return kib ? Number(kib) * 1024 : os.freemem();
}
