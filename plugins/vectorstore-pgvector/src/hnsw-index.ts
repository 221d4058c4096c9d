import crypto from 'node:crypto';
import type { EmbeddingSpace, SqlExecutor } from '@docqa/plugin-api';
import { maxIndexedDimensions, spaceKey } from './space.js';

export interface HnswBuildOptions {
  m: number;
  efConstruction: number;
}

/** A name PostgreSQL accepts whatever the model is called: the space is hashed, not spelled out. */
export function hnswIndexName(space: EmbeddingSpace): string {
  const digest = crypto.createHash('sha256').update(spaceKey(space)).digest('hex').slice(0, 16);
  return `vector_embedding_hnsw_${digest}`;
}

export function isIndexable(space: EmbeddingSpace): boolean {
  return space.dimensions <= maxIndexedDimensions;
}

export async function hnswIndexExists(sql: SqlExecutor, space: EmbeddingSpace): Promise<boolean> {
  const { rows } = await sql.query<{ present: boolean }>('select to_regclass($1) is not null as present', [
    hnswIndexName(space),
  ]);
  return rows[0]?.present === true;
}

/**
 * Creates the space's partial HNSW index unless it exists. DDL takes no parameters, so PostgreSQL
 * itself quotes the space literal and the index name (format's %L and %I) instead of this code.
 */
export async function ensureHnswIndex(
  sql: SqlExecutor,
  space: EmbeddingSpace,
  build: HnswBuildOptions,
): Promise<'created' | 'present'> {
  if (await hnswIndexExists(sql, space)) return 'present';
  const { rows } = await sql.query<{ statement: string }>(
    `select format(
       'create index if not exists %I on vector_embedding using hnsw ((embedding::vector(%s)) vector_cosine_ops) ' ||
       'with (m = %s, ef_construction = %s) where space = %L',
       $1::text, $2::integer, $3::integer, $4::integer, $5::text) as statement`,
    [hnswIndexName(space), space.dimensions, build.m, build.efConstruction, spaceKey(space)],
  );
  try {
    await sql.query(rows[0]!.statement);
  } catch (error) {
    // Another replica created it between our check and our statement: that is the outcome we want.
    if (!isAlreadyExists(error)) throw error;
  }
  return 'created';
}

export async function dropHnswIndex(sql: SqlExecutor, space: EmbeddingSpace): Promise<void> {
  // The name is ours (a fixed prefix and hex digits), so it needs no quoting.
  await sql.query(`drop index if exists ${hnswIndexName(space)}`);
}

function isAlreadyExists(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  // 42P07: duplicate_table; 23505: the catalog's unique index caught two concurrent creations.
  return code === '42P07' || code === '23505';
}
