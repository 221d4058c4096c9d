import type pg from 'pg';
import { quoteIdent } from './catalog.js';

/**
 * Rows that a new installation has before anyone used it, which an import may replace: a first
 * start (docqa serve or docqa migrate) seeds the runtime settings from its environment, the
 * migrations create the built-in `everyone` group, the first start creates the default admin
 * account and records LICENSE_KEY (on ENTERPRISE auditing both: those entries and the log's head);
 * the migrations also record which lexical analysis the (still empty) postings use, and the corpus's
 * BM25 totals (one row of zeros until a document is indexed).
 * Any other row means the database is in use. Each query counts the rows of its table that are NOT
 * such bootstrap rows.
 */
const bootstrapAllowances: Record<string, string> = {
  runtime_setting: 'select 0 as count',
  user_group: 'select count(*) as count from user_group where not builtin',
  // One account and nothing else (no sign-in: refresh_token would have rows) is the default admin.
  app_user: 'select case when count(*) <= 1 then 0 else count(*) end as count from app_user',
  license_ed25519_key: 'select 0 as count',
  audit_event: `select count(*) as count from audit_event
    where not (type = 'user.create' and details ->> 'default_admin' = 'true')
      and not (type = 'license.apply' and actor_id is null and details ->> 'source' = 'LICENSE_KEY')`,
  // The newest entry of audit_event, kept by its insert trigger: counted there.
  audit_head: 'select 0 as count',
  lexical_analyzer: 'select 0 as count',
  lexical_corpus: 'select count(*) as count from lexical_corpus where chunks <> 0 or terms <> 0',
};

/** DocQA's tables holding rows beyond a fresh installation's, with how many. */
export async function rowsBeyondBootstrap(
  client: pg.ClientBase,
  tables: readonly string[],
): Promise<Array<{ table: string; rows: number }>> {
  const found: Array<{ table: string; rows: number }> = [];
  for (const table of tables) {
    const { rows } = await client.query<{ count: string }>(
      bootstrapAllowances[table] ?? `select count(*) as count from ${quoteIdent(table)}`,
    );
    const count = Number(rows[0]?.count ?? 0);
    if (count > 0) found.push({ table, rows: count });
  }
  return found;
}
