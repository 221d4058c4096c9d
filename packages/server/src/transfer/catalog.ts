import type pg from 'pg';
import { DocqaError } from '@docqa/plugin-api';
import type { ColumnManifest } from './archive-format.js';

/** Where DocQA's migrator keeps its record; its schema is the schema of every DocQA table. */
export const migrationsTable = 'docqa_migrations';

export interface CatalogTable {
  oid: number;
  name: string;
  /** Columns that hold data: generated columns are left out (the database computes them again). */
  columns: ColumnManifest[];
  /** Whether a column is `generated always as identity`: inserting it needs OVERRIDING SYSTEM VALUE. */
  hasAlwaysIdentity: boolean;
}

/**
 * DocQA's tables, read from the catalog rather than from a list kept by hand, so a table added by a
 * future migration (the application's or a plugin's) is carried without anyone remembering to:
 * every table in the schema of the migrations table, but that table itself. pg-boss keeps its
 * queues in a schema of its own and is not among them. Partitions travel inside their parent.
 * The answer is in foreign-key order: every table after the tables it references.
 */
export async function readCatalog(client: pg.ClientBase): Promise<CatalogTable[]> {
  const namespace = await migrationsNamespace(client);
  if (namespace === null) return [];
  const { rows: tables } = await client.query<{ oid: number; name: string }>(
    `select c.oid::int as oid, c.relname as name from pg_class c
     where c.relnamespace = $1 and c.relkind in ('r', 'p') and not c.relispartition and c.relname <> $2
     order by c.relname`,
    [namespace, migrationsTable],
  );
  const { rows: columns } = await client.query<{ table_oid: number; name: string; type: string; identity: string }>(
    `select a.attrelid::int as table_oid, a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
      a.attidentity::text as identity
     from pg_attribute a join pg_class c on c.oid = a.attrelid
     where c.relnamespace = $1 and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     order by a.attrelid, a.attnum`,
    [namespace],
  );
  const { rows: references } = await client.query<{ child: number; parent: number }>(
    'select distinct conrelid::int as child, confrelid::int as parent from ' +
      "pg_constraint where contype = 'f' and connamespace = $1",
    [namespace],
  );
  const byOid = new Map(
    tables.map((table) => [
      table.oid,
      {
        oid: table.oid,
        name: table.name,
        columns: columns
          .filter((column) => column.table_oid === table.oid)
          .map((column) => ({ name: column.name, type: column.type })),
        hasAlwaysIdentity: columns.some((column) => column.table_oid === table.oid && column.identity === 'a'),
      },
    ]),
  );
  return foreignKeyOrder([...byOid.values()], references);
}

/** The sequences of DocQA's schema (identity and serial columns' among them), by name. */
export async function readSequenceNames(client: pg.ClientBase): Promise<string[]> {
  const namespace = await migrationsNamespace(client);
  if (namespace === null) return [];
  const { rows } = await client.query<{ name: string }>(
    `select relname as name from pg_class where relnamespace = $1 and relkind = 'S' order by relname`,
    [namespace],
  );
  return rows.map((row) => row.name);
}

async function migrationsNamespace(client: pg.ClientBase): Promise<number | null> {
  const { rows } = await client.query<{ namespace: number | null }>(
    'select (select relnamespace::int from pg_class where oid = to_regclass($1)) as namespace',
    [migrationsTable],
  );
  return rows[0]?.namespace ?? null;
}

/**
 * Kahn's algorithm, ties broken by name so the order is stable. A table referencing itself is
 * fine (its rows keep their stored order); a cycle between tables has no order to load them in.
 */
function foreignKeyOrder(tables: CatalogTable[], references: Array<{ child: number; parent: number }>): CatalogTable[] {
  const parents = new Map(tables.map((table) => [table.oid, new Set<number>()]));
  for (const { child, parent } of references) {
    if (child !== parent && parents.has(child) && parents.has(parent)) parents.get(child)?.add(parent);
  }
  const ordered: CatalogTable[] = [];
  const placed = new Set<number>();
  let remaining = [...tables];
  while (remaining.length > 0) {
    const ready = remaining.filter((table) =>
      [...(parents.get(table.oid) ?? [])].every((parent) => placed.has(parent)),
    );
    if (ready.length === 0) {
      throw new DocqaError(
        'internal',
        'The foreign keys of tables ' +
          `${remaining.map((table) => table.name).join(', ')} form a cycle, so there is ` +
          'no order to load them in.',
      );
    }
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.oid);
    }
    remaining = remaining.filter((table) => !placed.has(table.oid));
  }
  return ordered;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Session settings under which every value's text form is exact and the same on both sides:
 * timestamps in UTC, floats with all their digits, bytea in hex, dates in ISO order.
 */
export const exactTextSettings = [
  `set local timezone = 'UTC'`,
  'set local extra_float_digits = 3',
  `set local bytea_output = 'hex'`,
  `set local datestyle = 'ISO, YMD'`,
  `set local intervalstyle = 'postgres'`,
];
