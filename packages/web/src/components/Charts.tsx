import { formatPercent } from '../lib/format';

export interface Bar {
  label: string;
  value: number;
  /** Shown instead of the value. */
  text?: string;
}

/**
 * Horizontal bars in a table: readable at any width, and a screen reader reads the numbers as a
 * table. `max` of 1 draws fractions (rates); otherwise bars scale to the largest value.
 */
export function BarChart({
  title,
  bars,
  max,
  unitLabel,
}: {
  title: string;
  bars: Bar[];
  max?: number;
  unitLabel: string;
}) {
  const top = max ?? Math.max(1, ...bars.map((b) => b.value));
  return (
    <figure className="chart">
      <table>
        <caption>{title}</caption>
        <thead className="visually-hidden">
          <tr>
            <th scope="col">Item</th>
            <th scope="col">{unitLabel}</th>
          </tr>
        </thead>
        <tbody>
          {bars.map((bar, i) => (
            <tr key={`${bar.label}-${i}`}>
              <th scope="row" className="chart-label">
                {bar.label}
              </th>
              <td className="chart-cell">
                <span
                  className="chart-bar"
                  aria-hidden="true"
                  style={{ width: `${top > 0 ? Math.max(0, Math.min(100, (bar.value / top) * 100)) : 0}%` }}
                />
                <span className="chart-value">
                  {bar.text ?? (max === 1 ? formatPercent(bar.value) : String(bar.value))}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** Histogram buckets `{min, max, count}` (max null: open-ended) as bars. */
export function Histogram({
  title,
  buckets,
  unit,
}: {
  title: string;
  buckets: Array<{ min: number; max: number | null; count: number }>;
  unit: string;
}) {
  return (
    <BarChart
      title={title}
      unitLabel="Count"
      bars={buckets.map((b) => ({
        label: `${b.max === null ? `${b.min}+` : b.max - 1 <= b.min ? b.min : `${b.min}–${b.max - 1}`}${unit ? ` ${unit}` : ''}`,
        value: b.count,
      }))}
    />
  );
}
