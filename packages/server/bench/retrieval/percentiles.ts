/** Percentiles of the timings bench:retrieval measures. */

/** The nearest-rank percentile (q in 0..1) of unsorted values. */
export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

export interface Spread {
  p50: number;
  p95: number;
}

export const spread = (values: readonly number[]): Spread => ({
  p50: percentile(values, 0.5),
  p95: percentile(values, 0.95),
});
