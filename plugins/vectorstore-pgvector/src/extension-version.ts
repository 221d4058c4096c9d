import { DocqaError, type SqlExecutor } from '@docqa/plugin-api';

// Filtered queries rely on iterative index scans, which pgvector has had since 0.8.0.
const minimumVersion = [0, 8, 0] as const;

/** Fails start-up with the fix when the database runs a pgvector too old for this store. */
export async function assertPgvectorVersion(sql: SqlExecutor): Promise<void> {
  const { rows } = await sql.query<{ version: string }>(
    `select extversion as version from pg_extension where extname = 'vector'`,
  );
  const version = rows[0]?.version;
  if (version === undefined) {
    throw new DocqaError(
      'unavailable',
      'The pgvector extension is not installed in the database; its migration should have created it.',
    );
  }
  const parts = version.split('.').map((part) => Number.parseInt(part, 10));
  for (let i = 0; i < minimumVersion.length; i++) {
    const have = parts[i] ?? 0;
    if (have > minimumVersion[i]!) return;
    if (have < minimumVersion[i]!) {
      throw new DocqaError(
        'unavailable',
        `pgvector ${version} is installed; this vector store needs ${minimumVersion.join('.')} or later. ` +
          'Install a newer pgvector on the server and run ALTER EXTENSION vector UPDATE.',
      );
    }
  }
}
