import { DocqaError, type AuditService, type Db, type JobsService } from '@docqa/plugin-api';
import type { Principal } from '../identity/contract.js';
import type { DocumentService } from '../documents/contract.js';
import type { SourceKind, SourceRow, SourceService } from '../sources/contract.js';
import { syncQueue, type SyncJobData, type SyncService } from './contract.js';
import { cancelIndexingStartedBy, deleteSourceDocuments } from './source-sync.js';

/** Starting syncs (one queued per source at a time) and removing sources with their documents. */
export class SourceSyncs implements SyncService {
  /** The start under way per source: starts of one source wait for each other (see start()). */
  readonly #starting = new Map<string, Promise<string>>();

  constructor(
    private readonly env: { db: Db; jobs: JobsService; audit: AuditService },
    private readonly sources: SourceService,
    private readonly documents: DocumentService,
  ) {}

  /**
   * The source's job: the one queued or running, or a new one. Two scans asked at once used to both
   * find none and both send, and the second job was skipped by the worker: starts of one source now
   * take turns in this process, and a job another replica queued meanwhile (pg-boss refuses a second
   * job with the source's singleton key) is answered instead of a conflict.
   */
  start(source: SourceRow, kind: 'scan' | 'sync'): Promise<string> {
    if (!source.enabled)
      return Promise.reject(new DocqaError('conflict', `${source.name} is disabled; enable it first.`));
    const previous = this.#starting.get(source.id) ?? Promise.resolve('');
    const next = previous.catch(() => '').then(() => this.#startOnce(source, kind));
    this.#starting.set(source.id, next);
    const forget = () => {
      if (this.#starting.get(source.id) === next) this.#starting.delete(source.id);
    };
    next.then(forget, forget);
    return next;
  }

  async #startOnce(source: SourceRow, kind: 'scan' | 'sync'): Promise<string> {
    const existing = await this.#unfinishedJob(source.id);
    if (existing) return existing;
    try {
      return await this.env.jobs.send<SyncJobData>(
        syncQueue,
        { sourceId: source.id, sourceType: source.kind, kind },
        { singletonKey: source.id, group: source.id },
      );
    } catch (error) {
      const queued = DocqaError.is(error, 'conflict') ? await this.#unfinishedJob(source.id) : null;
      if (queued) return queued;
      throw error;
    }
  }

  async #unfinishedJob(sourceId: string): Promise<string | null> {
    const running = await this.env.jobs.list({
      queues: [syncQueue],
      states: ['queued', 'running'],
      data: { sourceId },
      limit: 1,
      offset: 0,
    });
    return running.items[0]?.id ?? null;
  }

  async startAll(principal: Principal, ip: string | undefined): Promise<string[]> {
    const ids: string[] = [];
    for (const source of await this.sources.enabled())
      ids.push(await this.start(source, source.kind === 'connector' ? 'scan' : 'sync'));
    await this.env.audit.record({
      type: 'sync.all',
      actor: { id: principal.userId, username: principal.username },
      ip: ip ?? null,
      target: null,
      outcome: 'success',
      details: { jobs: ids.length },
    });
    return ids;
  }

  async deleteSource(kind: SourceKind, id: string): Promise<void> {
    const source = await this.sources.get(kind, id);
    const pending = await this.env.jobs.list({
      queues: [syncQueue],
      states: ['queued', 'running'],
      data: { sourceId: id },
      limit: 100,
      offset: 0,
    });
    for (const job of pending.items) await this.env.jobs.cancel(job.queue, job.id).catch(() => undefined);
    await deleteSourceDocuments(this.env.db, this.documents, source.id);
    await this.sources.delete(kind, id);
  }

  cancelIndexingStartedBy(syncJobId: string): Promise<number> {
    return cancelIndexingStartedBy(this.env, syncJobId);
  }
}
