import type { PluginMigration } from '@docqa/plugin-api';

/**
 * The column has no fixed dimension so that every embedding space fits one table; the dimension
 * check keeps each row true to the space it claims.
 */
export const migrations: readonly PluginMigration[] = [
  {
    name: '0001_vectors',
    up: [
      'create extension if not exists vector',
      `create table vector_embedding (
        space text not null,
        dimensions integer not null,
        chunk_id text not null,
        document_id text not null,
        embedding vector not null,
        created_at timestamptz not null default now(),
        primary key (space, chunk_id),
        constraint vector_embedding_dimensions_match check (vector_dims(embedding) = dimensions)
      )`,
      'create index vector_embedding_document_id_idx on vector_embedding (document_id)',
    ],
    // The extension stays: other schemas in the database may use it.
    down: ['drop table if exists vector_embedding'],
  },
];

/**
 * One statement per batch: three parallel arrays unnested into rows. A chunk written again takes
 * the new vector and document, and counts as created now.
 */
export const upsertBatchSql = `
  insert into vector_embedding (space, dimensions, chunk_id, document_id, embedding)
  select $1::text, $2::integer, batch.chunk_id, batch.document_id, batch.embedding::vector
  from unnest($3::text[], $4::text[], $5::text[]) as batch (chunk_id, document_id, embedding)
  on conflict (space, chunk_id) do update
    set document_id = excluded.document_id, embedding = excluded.embedding, created_at = now()`;

/**
 * Nearest chunks of one space by cosine distance. The cast to vector(N) is the expression the
 * space's partial HNSW index is built on, so the planner can use that index; N is a validated
 * integer (a type modifier cannot be a parameter).
 */
export function nearestSql(dimensions: number, filterByDocuments: boolean): string {
  const distance = `embedding::vector(${dimensions}) <=> $1::vector(${dimensions})`;
  return `
    select chunk_id, document_id, ${distance} as distance
    from vector_embedding
    where space = $2${filterByDocuments ? ' and document_id = any($4::text[])' : ''}
    order by ${distance}
    limit $3`;
}
