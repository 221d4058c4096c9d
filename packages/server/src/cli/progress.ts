import type { DownloadProgress } from '@docqa/core/models';

/** Where a progress bar draws; process.stderr in the command, a string collector in tests. */
export interface ProgressTarget {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * A one-line progress bar redrawn in place, for terminals only: on a pipe or in a log file a
 * redrawn line is noise, so there the caller prints a line when the download starts and ends.
 */
export function progressBar(
  target: ProgressTarget,
  label: string,
  now: () => number = Date.now,
): { update(progress: DownloadProgress): void; done(): void } {
  const started = now();
  let drawn = 0;
  let startBytes: number | null = null;
  return {
    update({ receivedBytes, totalBytes, resumedFromBytes }) {
      if (!target.isTTY) return;
      const time = now();
      if (time - drawn < 100 && receivedBytes !== totalBytes) return;
      drawn = time;
      startBytes ??= resumedFromBytes;
      // Speed counts this run's bytes only: a resumed part arrived at no speed at all.
      const seconds = Math.max((time - started) / 1000, 0.001);
      const speed = (receivedBytes - startBytes) / seconds;
      const share = totalBytes ? Math.min(receivedBytes / totalBytes, 1) : null;
      const width = 24;
      const bar =
        share === null
          ? ''
          : `[${'#'.repeat(Math.round(share * width)).padEnd(width, '.')}] ` +
            `${String(Math.floor(share * 100)).padStart(3)}% `;
      const eta = totalBytes && speed > 0 ? `  ETA ${duration((totalBytes - receivedBytes) / speed)}` : '';
      target.write(
        `\r${label} ` +
          `${bar}${bytes(receivedBytes)}${totalBytes ? ` / ${bytes(totalBytes)}` : ''} ` +
          ` ${bytes(speed)}/s${eta}\u001b[K`,
      );
    },
    done() {
      if (target.isTTY && drawn > 0) target.write('\n');
    },
  };
}

export function bytes(n: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

function duration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}
