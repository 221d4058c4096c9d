import crypto from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  DocqaError,
  type ConnectorDocument,
  type Db,
  type JobContext,
  type JobsService,
  type Logger,
} from '@docqa/plugin-api';
import { ingestQueue, type DocumentService, type IngestJobData } from '../documents/contract.js';
import type { SourceRow, SourceService } from '../sources/contract.js';
import { syncQueue, type SyncJobData, type SyncOutcome } from './contract.js';

/** What a sync works with besides the sources and the documents. */
export interface SyncEnvironment {
  db: Db;
  jobs: JobsService;
  logger: Logger;
}

/**
 * Cancels the indexing a sync queued and has not finished: listed first, then cancelled. Their
 * documents are marked failed, saying why, so the next sync indexes them again (a pending document
 * whose job is gone would wait for ever, and a sync finds its bytes unchanged).
 */
export async function cancelIndexingStartedBy(
  { db, jobs }: Pick<SyncEnvironment, 'db' | 'jobs'>,
  syncJobId: string,
): Promise<number> {
  const children: Array<{ id: string; data: IngestJobData }> = [];
  for (let offset = 0; ; offset += 500) {
    const { items } = await jobs.list<IngestJobData>({
      queues: [ingestQueue],
      states: ['queued', 'running'],
      data: { startedBy: syncJobId },
      limit: 500,
      offset,
    });
    children.push(...items);
    if (items.length < 500) break;
  }
  for (const child of children) {
    await jobs.cancel(ingestQueue, child.id);
    await db.query(
      "update document set status = 'failed', error = $2, updated_at = now() " +
        "where id = $1 and status in ('pending', 'indexing')",
      [child.data.documentId, 'Its sync was cancelled before it was indexed; the next sync indexes it.'],
    );
  }
  return children.length;
}

const skippedFilesShown = 20;

/**
 * One sync of a source: pull its changes since the stored cursor, store new and changed bytes,
 * queue them for indexing, apply moves and deletions, and keep the cursor at every checkpoint so
 * an interrupted sync resumes where its last checkpoint left it.
 */
export class SourceSync {
  readonly #logger: Logger;

  constructor(
    private readonly env: SyncEnvironment,
    private readonly sources: SourceService,
    private readonly documents: DocumentService,
  ) {
    this.#logger = env.logger.child({ component: 'sync' });
  }

  async run(job: JobContext<SyncJobData>): Promise<SyncOutcome | { skipped: string }> {
    if (await this.#earlierSyncRunning(job)) return { skipped: 'Another sync of this source was already running.' };
    const { rows } = await this.env.db.query<SourceRow>('select * from source where id = $1', [job.data.sourceId]);
    const row = rows[0];
    if (!row) throw new DocqaError('not_found', `Source ${job.data.sourceId} no longer exists.`);
    const outcome: SyncOutcome = { upserted: 0, unchanged: 0, moved: 0, deleted: 0, skipped: 0, skipped_files: [] };
    try {
      const provider = this.sources.provider(row.kind, row.type);
      const source = await provider.open(provider.sourceConfigSchema.parse(this.sources.fullConfig(row)), {
        sourceId: row.id,
      });
      try {
        for await (const event of source.sync(row.cursor, job.signal)) {
          if (event.type === 'upsert') await this.#upsertOrSkip(row, event.document, outcome, job);
          else if (event.type === 'delete') outcome.deleted += await this.#delete(row, event.externalId);
          else if (event.type === 'checkpoint')
            await this.env.db.query('update source set cursor = $2 where id = $1', [row.id, event.cursor]);
          else await job.progress(event.done, event.total);
        }
      } finally {
        await source.close?.();
      }
      // A connector may end its events quietly when cancelled: the sync still ends as cancelled.
      job.signal.throwIfAborted();
      await this.#finish(row.id, 'succeeded', null);
      this.#logger.info({ source_id: row.id, ...outcome }, 'sync finished');
      return outcome;
    } catch (error) {
      await this.#finish(
        row.id,
        job.signal.aborted ? 'cancelled' : 'failed',
        job.signal.aborted ? 'The sync was cancelled.' : (error as Error).message,
      );
      // After the source says so: a big sync queued thousands, cancelled one at a time.
      if (job.signal.aborted) await cancelIndexingStartedBy(this.env, job.id);
      throw error;
    }
  }

  /**
   * Two syncs of one source must not run at once: both would move its one cursor. Within a process
   * the sync queue's group limit sees to it. A schedule tick can still start one on another replica
   * while a manual sync runs; then the later of the two gives way, which both can tell apart.
   */
  async #earlierSyncRunning(job: JobContext<SyncJobData>): Promise<boolean> {
    const { items } = await this.env.jobs.list({
      queues: [syncQueue],
      states: ['running'],
      data: { sourceId: job.data.sourceId },
      limit: 20,
      offset: 0,
    });
    const mine = items.find((item) => item.id === job.id);
    if (!mine) return false;
    const before = (other: typeof mine) =>
      other.createdAt.getTime() < mine.createdAt.getTime() ||
      (other.createdAt.getTime() === mine.createdAt.getTime() && other.id < mine.id);
    return items.some((other) => other.id !== mine.id && before(other));
  }

  async #upsertOrSkip(
    row: SourceRow,
    document: ConnectorDocument,
    outcome: SyncOutcome,
    job: JobContext<SyncJobData>,
  ): Promise<void> {
    try {
      await this.#upsert(row, document, outcome, job);
    } catch (error) {
      // A plan limit skips this document only: deletions and changes later in the sync still apply.
      if (
        !DocqaError.is(error) ||
        !['unsupported_media_type', 'plan_required', 'file_too_large', 'plan_limit'].includes(error.code)
      )
        throw error;
      outcome.skipped++;
      if (outcome.skipped_files.length < skippedFilesShown)
        outcome.skipped_files.push({ path: document.path, code: error.code, detail: error.message });
      this.#logger.info({ source_id: row.id, path: document.path, code: error.code }, `skipped: ${error.message}`);
    }
  }

  async #upsert(
    row: SourceRow,
    document: ConnectorDocument,
    outcome: SyncOutcome,
    job: JobContext<SyncJobData>,
  ): Promise<void> {
    const signal = job.signal;
    const db = this.env.db;
    if (document.movedFrom) {
      // Not when a document is already at the new place (DocQA wrote or moved the file there itself
      // with connector_id, see documents/connector-documents.ts): it stays,
      // and the delete that follows removes the old one.
      const moved = await db.query(
        `update document set external_id = $4, path = $5, filename = $6, updated_at = now() where source_type = $1
          and source_id = $2 and external_id = $3
           and not exists (select 1 from document taken where taken.source_type = $1 and taken.source_id = $2
             and taken.external_id = $4)`,
        [row.kind, row.id, document.movedFrom, document.externalId, document.path, path.posix.basename(document.path)],
      );
      if (moved.rowCount > 0) {
        outcome.moved++;
        return;
      }
    }
    const { rows } = await db.query<{ id: string; content_hash: string; status: string }>(
      'select id, content_hash, status from document where source_type = $1 and source_id = $2 and external_id = $3',
      [row.kind, row.id, document.externalId],
    );
    const existing = rows[0];
    const filename = path.posix.basename(document.path) || document.externalId;
    const extractor = this.documents.policy.extractorFor(filename, document.mediaType);
    const limits = this.documents.policy.limits();
    const totals = await this.documents.repository.totals();
    if (!existing && limits.documents !== null && totals.documents >= limits.documents) {
      throw new DocqaError(
        'plan_limit',
        `${filename} was skipped: this plan holds at most ${limits.documents} documents.`,
        { extra: { limit: limits.documents, current: totals.documents } },
      );
    }
    const staged = await this.documents.blobs.stage(Readable.from(await document.open(signal)), (bytes) => {
      if (limits.fileSizeBytes !== null && bytes > limits.fileSizeBytes)
        this.documents.policy.refuseTooLarge(filename, limits);
      if (limits.storageBytes !== null && totals.bytes + bytes > limits.storageBytes) {
        throw new DocqaError('plan_limit', `${filename} was skipped: storing it would pass this plan's storage.`, {
          extra: { limit: limits.storageBytes, current: totals.bytes },
        });
      }
    });
    if (existing && existing.content_hash === staged.sha256 && existing.status !== 'failed') {
      await this.documents.blobs.discard(staged);
      outcome.unchanged++;
      return;
    }
    await this.documents.blobs.commit(staged);
    const mediaType =
      document.mediaType && extractor.mediaTypes.includes(document.mediaType)
        ? document.mediaType
        : (extractor.mediaTypes[0] as string);
    // Cancelled while the bytes were read: no document is left pending without its indexing.
    signal.throwIfAborted();
    const values = [
      row.kind,
      row.id,
      document.externalId,
      document.path,
      filename,
      mediaType,
      staged.sizeBytes,
      staged.sha256,
      document.title ?? null,
    ];
    const { rows: saved } = existing
      ? await db.query<{ id: string }>(
          'update document set path = $4, filename = $5, media_type = $6, size_bytes = $7, content_hash = ' +
            "$8, title = coalesce($9, title), status = 'pending', error = null, updated_at = now() where " +
            'source_type = $1 and source_id = $2 and external_id = $3 returning id',
          values,
        )
      : await db.query<{ id: string }>(
          'insert into document (id, source_type, source_id, external_id, path, filename, media_type, size_bytes, ' +
            "content_hash, title, status) values ($10, $1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending') returning id",
          [...values, crypto.randomUUID()],
        );
    const documentId = (saved[0] as { id: string }).id;
    // Grouped by source: a big sync cannot take every ingest slot (see workers.ts).
    // startedBy: cancelling this sync cancels the indexing it queued (routes/jobs.ts).
    const jobId = await this.env.jobs.send<IngestJobData>(
      ingestQueue,
      { documentId, startedBy: job.id },
      { group: row.id },
    );
    await db.query('update document set job_id = $2 where id = $1', [documentId, jobId]);
    outcome.upserted++;
  }

  async #delete(row: SourceRow, externalId: string): Promise<number> {
    const { rows } = await this.env.db.query<{ id: string }>(
      'select id from document where source_type = $1 and source_id = $2 and external_id = $3',
      [row.kind, row.id, externalId],
    );
    if (rows.length === 0) return 0;
    const { deleted } = await this.documents.delete(rows.map((r) => r.id));
    return deleted.length;
  }

  async #finish(id: string, status: string, error: string | null): Promise<void> {
    await this.env.db.query(
      'update source set last_sync_at = now(), last_sync_status = $2, ' +
        'last_error = $3, updated_at = now() where id = $1',
      [id, status, error],
    );
  }
}

/** Removes a source's documents (and their vectors and unshared bytes) when the source is deleted. */
export async function deleteSourceDocuments(db: Db, documents: DocumentService, sourceId: string): Promise<number> {
  const { rows } = await db.query<{ id: string }>('select id from document where source_id = $1', [sourceId]);
  if (rows.length === 0) return 0;
  return (await documents.delete(rows.map((r) => r.id))).deleted.length;
}
