/** One line of npm run bench:load's table. */
import type { LoadResult } from './client.js';

export interface Row extends LoadResult {
  name: string;
  clients: number;
  rps: number;
  /** The server process's CPU time (every thread; on the embedded database PGlite's too) per request. */
  cpuMsPerRequest: number;
  /** On PostgreSQL: its backends' CPU time for this server's database per request. */
  databaseCpuMsPerRequest?: number;
}

const ratio = (row: Row, of: Row | undefined) => (of ? (row.rps / of.rps).toFixed(3) : '-').padStart(6);

export function formatRow(row: Row, bare: Row, version: Row | undefined): string {
  const failures = Object.entries(row.failures)
    .map(([reason, n]) => `${reason}×${n}`)
    .join(' ');
  return (
    `${row.name.padEnd(26)} ${row.rps.toFixed(0).padStart(7)} req/s  p50 ${row.p50.toFixed(1).padStart(7)} ms  ` +
    `p99 ${row.p99.toFixed(1).padStart(7)} ms  errors ${String(row.errors).padStart(4)}  ` +
    `×bare ${ratio(row, bare)}  ×version ${ratio(row, version)}  cpu ${row.cpuMsPerRequest.toFixed(2).padStart(6)} ms/req` +
    (row.databaseCpuMsPerRequest !== undefined
      ? `  pg ${row.databaseCpuMsPerRequest.toFixed(2).padStart(5)} ms/req`
      : '') +
    (failures ? `  (${failures})` : '')
  );
}
