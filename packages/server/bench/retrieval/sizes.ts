/** What the loaded corpus takes on disk, per table and index: the figures behind docs/operations.md's sizing. */
import type { Db } from '@docqa/plugin-api';

export interface RelationSize {
  table: string;
  /** The heap with its TOAST (vectors are stored out of line past ~2 kB). */
  tableBytes: number;
  indexes: { name: string; bytes: number }[];
}

export interface Sizes {
  relations: RelationSize[];
  databaseBytes: number;
}

const tables = [
  'chunk_term',
  'lexical_chunk_number',
  'term_window',
  'chunk',
  'document',
  'term_stats',
  'vector_embedding',
];

export async function relationSizes(db: Db): Promise<Sizes> {
  const { rows } = await db.query<{ table: string; table_bytes: string; index: string | null; index_bytes: string }>(
    `select c.relname as table, pg_table_size(c.oid) as table_bytes, i.indexrelid::regclass::text as index,
            coalesce(pg_relation_size(i.indexrelid), 0) as index_bytes
     from pg_class c left join pg_index i on i.indrelid = c.oid
     where c.relname = any($1::text[]) and c.relkind = 'r'
     order by c.relname, i.indexrelid::regclass::text`,
    [tables],
  );
  const relations = new Map<string, RelationSize>();
  for (const row of rows) {
    let relation = relations.get(row.table);
    if (!relation)
      relations.set(row.table, (relation = { table: row.table, tableBytes: Number(row.table_bytes), indexes: [] }));
    if (row.index) relation.indexes.push({ name: row.index, bytes: Number(row.index_bytes) });
  }
  const { rows: database } = await db.query<{ bytes: string }>('select pg_database_size(current_database()) as bytes');
  return {
    relations: tables.flatMap((table) => relations.get(table) ?? []),
    databaseBytes: Number(database[0]?.bytes ?? 0),
  };
}
