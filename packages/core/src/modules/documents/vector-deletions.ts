import type { Db, Logger, VectorStoreProvider } from '@docqa/plugin-api';

/** Where deleted documents' ids wait (the main database) and the store their vectors are in. */
export interface VectorDeletionTarget {
  db: Db;
  vectorStore: VectorStoreProvider | undefined;
}

/** Ids per round: one deleteDocuments call and one statement each. */
const idsPerRound = 500;

/**
 * Deletes the vectors of deleted documents, queued in vector_deletion by the statement that deleted
 * them (0020_vector_deletion), then their queue rows: vectors first, so a crash between the two
 * leaves the id queued and the next run deletes again, which finds nothing and is harmless. With
 * `ids`, only those (a deletion just made); without, everything queued (the sweep). A store that
 * fails leaves its ids queued for the next sweep: a vector of a deleted document is never answered
 * meanwhile, since search checks every hit against the document's chunk on the main database.
 */
export async function flushVectorDeletions(
  { db, vectorStore: store }: VectorDeletionTarget,
  ids?: readonly string[],
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { rows } = ids
      ? await db.query<{ document_id: string }>(
          'select document_id from vector_deletion where document_id = any($1::uuid[])',
          [ids],
        )
      : await db.query<{ document_id: string }>(
          'select document_id from vector_deletion order by deleted_at limit $1',
          [idsPerRound],
        );
    if (rows.length === 0) return deleted;
    const queued = rows.map((row) => row.document_id);
    await store?.deleteDocuments(queued);
    await db.query('delete from vector_deletion where document_id = any($1::uuid[])', [queued]);
    deleted += queued.length;
    if (ids || rows.length < idsPerRound) return deleted;
  }
}

/** Runs the sweep now and then every `intervalMs` (worker processes): repairs what a crash or an outage left. */
export function startVectorDeletionSweep(
  target: VectorDeletionTarget,
  logger: Logger,
  intervalMs = 60_000,
): { stop(): void } {
  let running = false;
  const sweep = () => {
    if (running) return;
    running = true;
    flushVectorDeletions(target)
      .then((n) => n > 0 && logger.info({ documents: n }, 'deleted the vectors of deleted documents'))
      .catch((error: unknown) =>
        logger.warn({ err: error }, 'deleting the vectors of deleted documents failed; retried'),
      )
      .finally(() => {
        running = false;
      });
  };
  sweep();
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
