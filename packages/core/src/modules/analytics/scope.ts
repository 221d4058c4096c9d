import { DocqaError, SqlParams, type Db, type SqlExecutor } from '@docqa/plugin-api';
import { documentAccessPredicate } from '../groups/contract.js';

/**
 * The path id that stands for uploaded documents, which belong to no connector or integration. It
 * cannot clash with a source: source ids are UUIDs.
 */
export const uploadsSourceId = 'uploads';

/** The documents one analytics request looks at: one source's (or the uploads), as the caller may see them. */
export interface SourceScope {
  sourceId: string;
  sourceType: 'connector' | 'integration' | 'upload';
  /** Null: every document (admins, and plans without group access control). */
  visibleToGroups: string[] | null;
}

/** Finds the source; an unknown id is 404, after the route has checked the token, role and plan. */
export async function resolveScope(
  db: SqlExecutor,
  sourceId: string,
  visibleToGroups: string[] | null,
): Promise<SourceScope> {
  if (sourceId === uploadsSourceId) return { sourceId, sourceType: 'upload', visibleToGroups };
  const { rows } = await db.query<{ kind: 'connector' | 'integration' }>('select kind from source where id = $1', [
    sourceId,
  ]);
  if (!rows[0]) throw new DocqaError('not_found', `No connector or integration ${sourceId} exists.`);
  return { sourceId, sourceType: rows[0].kind, visibleToGroups };
}

/**
 * SQL selecting the scope's documents (alias `d`): its indexed ones unless `anyStatus`. The
 * (source_type, source_id) equality uses the document_source_path index; the access check is the
 * one document lists and search use, left out when the caller sees everything.
 */
export function scopedDocuments(
  scope: SourceScope,
  params: SqlParams,
  columns: string,
  options: { anyStatus?: boolean } = {},
): string {
  const conditions = options.anyStatus ? [] : [`d.status = 'indexed'`];
  if (scope.sourceType === 'upload') conditions.push(`d.source_type = 'upload'`);
  else
    conditions.push(`d.source_type = ${params.add(scope.sourceType)}`, `d.source_id = ${params.add(scope.sourceId)}`);
  if (scope.visibleToGroups) conditions.push(documentAccessPredicate('d', params.add(scope.visibleToGroups)));
  return `select ${columns} from document d where ${conditions.join(' and ')}`;
}

export { SqlParams };

/**
 * Runs one analytics statement with nested loops ruled out. Each statement aggregates whole sets
 * (every chunk, every outcome of a source), for which hash joins are right at any size. On the
 * embedded database, whose tables are analysed only by the server's own maintenance (a minute after
 * enough changes, kernel/src/db/embedded-autovacuum.ts), a table can be without statistics; then the
 * planner guesses one row per source and picks nested loops of index probes, which took 0.6 to
 * 3 s instead of 0.1 to 0.3 s on 100,000 chunks in bench:analytics. `set local` ends with the
 * transaction, so the connection goes back to the pool unchanged.
 */
export async function aggregateQuery<R extends object>(db: Db, text: string, values: unknown[]): Promise<R> {
  return db.transaction(async (tx) => {
    await tx.query('set local enable_nestloop = off');
    const { rows } = await tx.query<R>(text, values);
    return rows[0]!;
  });
}

/** A fraction rounded to 4 decimals; null when there was nothing to divide by. */
export function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;
}

/**
 * SQL aggregates summarising the column `n`: count, min, max, mean and linear-interpolated median
 * and 90th percentile, as one json object.
 */
export const summarySql = `json_build_object('count', count(*), 'min', min(n), 'max', max(n), 'mean', avg(n)::float8,
  'percentiles', percentile_cont(array[0.5, 0.9]) within group (order by n))`;

/** What summarySql yields: the percentiles in one array, from one sort of the values. */
export interface RawSummary {
  count: number;
  min: number | null;
  max: number | null;
  mean: number | null;
  percentiles: [number, number] | null;
}

const round2 = (value: number | null | undefined) =>
  value === null || value === undefined ? null : Math.round(value * 100) / 100;

export function presentSummary(raw: RawSummary) {
  return {
    count: Number(raw.count),
    min: raw.min,
    max: raw.max,
    mean: round2(raw.mean),
    median: round2(raw.percentiles?.[0]),
    p90: round2(raw.percentiles?.[1]),
  };
}

/**
 * SQL counting `n` per bucket in the same pass as the other aggregates, as a json array: bucket i
 * is [edges[i], edges[i+1]), the last one open. The edges are constants of this code, not input.
 */
export function histogramSql(edges: readonly number[]): string {
  const buckets = edges.map((min, i) => {
    const max = edges[i + 1];
    return `count(*) filter (where n >= ${Number(min)}${max === undefined ? '' : ` and n < ${Number(max)}`})`;
  });
  return `json_build_array(${buckets.join(', ')})`;
}

/** Every bucket, empty ones too, so a chart has no holes. */
export function presentHistogram(edges: readonly number[], counts: readonly number[]) {
  return edges.map((min, i) => ({ min, max: edges[i + 1] ?? null, count: Number(counts[i] ?? 0) }));
}
