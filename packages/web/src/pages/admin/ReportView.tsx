import { BarChart, Histogram } from '../../components/Charts';
import { formatPercent } from '../../lib/format';

// The analytics endpoints (spec 4.7) are rendered from whatever JSON they answer: known shapes become
// charts (histograms, rates), numbers become a summary, lists become tables; nothing is assumed.

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const isBucket = (value: unknown) =>
  isObject(value) && typeof value.count === 'number' && typeof value.min === 'number';
const rateKey = /(rate|coverage|ratio|share)$/;
const labelKeys = ['field_name', 'path', 'title', 'name', 'document_id', 'rule_id', 'id'];
const hiddenKeys = new Set(['source_id', 'source_type']);

function labelOf(item: Json, index: number): string {
  for (const key of labelKeys) if (typeof item[key] === 'string' && item[key]) return String(item[key]);
  return `#${index + 1}`;
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(3);
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function ScalarList({ data }: { data: Json }) {
  const entries = Object.entries(data).filter(([key, value]) => isScalar(value) && !hiddenKeys.has(key));
  if (entries.length === 0) return null;
  return (
    <dl className="stats">
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{key.replace(/_/g, ' ')}</dt>
          <dd>{rateKey.test(key) && typeof value === 'number' ? formatPercent(value) : show(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function ItemTable({ name, items }: { name: string; items: Json[] }) {
  const columns = [...new Set(items.flatMap((item) => Object.keys(item)))]
    .filter((key) => items.some((item) => item[key] !== undefined))
    .slice(0, 12);
  return (
    <div className="table-wrap">
      <table className="compact">
        <caption>{name.replace(/_/g, ' ')}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column.replace(/_/g, ' ')}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((item, i) => (
            <tr key={i}>
              {columns.map((column) => (
                <td key={column}>{show(item[column])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ArrayView({ name, items }: { name: string; items: unknown[] }) {
  if (items.length === 0) return <p className="hint">No {name.replace(/_/g, ' ')}.</p>;
  if (items.every(isBucket))
    return (
      <Histogram
        title={name.replace(/_/g, ' ')}
        buckets={items as Array<{ min: number; max: number | null; count: number }>}
        unit=""
      />
    );
  if (!items.every(isObject)) return <p>{items.map(show).join(', ')}</p>;
  const objects = items as Json[];
  const rates = [
    ...new Set(
      objects.flatMap((item) =>
        Object.keys(item).filter((key) => rateKey.test(key) && (typeof item[key] === 'number' || item[key] === null)),
      ),
    ),
  ];
  return (
    <>
      {rates.map((key) => (
        <BarChart
          key={key}
          title={`${key.replace(/_/g, ' ')} by ${name.replace(/_/g, ' ')}`}
          unitLabel={key}
          max={1}
          bars={objects.map((item, i) => ({
            label: labelOf(item, i),
            value: typeof item[key] === 'number' ? (item[key] as number) : 0,
            text: item[key] === null ? '—' : undefined,
          }))}
        />
      ))}
      <ItemTable name={name} items={objects} />
    </>
  );
}

export function ReportView({ data }: { data: unknown }) {
  if (Array.isArray(data)) return <ArrayView name="items" items={data} />;
  if (!isObject(data)) return <pre>{JSON.stringify(data, null, 2)}</pre>;
  return (
    <div className="report">
      <ScalarList data={data} />
      {Object.entries(data).map(([key, value]) => {
        if (Array.isArray(value)) {
          return (
            <div key={key}>
              <ArrayView name={key} items={value} />
            </div>
          );
        }
        if (isObject(value)) {
          return (
            <div key={key} className="sub-report">
              <h4>{key.replace(/_/g, ' ')}</h4>
              <ReportView data={value} />
            </div>
          );
        }
        return null;
      })}
    </div>
  );
}
