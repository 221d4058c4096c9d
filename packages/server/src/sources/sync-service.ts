import { DocqaError, tokens, type AuditService } from '@docqa/plugin-api';
import type { Kernel } from '@docqa/kernel';
import type { Principal } from '../http/route.js';
import type { DocumentService } from '../documents/document-service.js';
import type { SourceKind, SourceRow, SourceService } from './source-service.js';
import { deleteSourceDocuments, syncQueue, type SyncJobData } from './sync.js';

/** Starting syncs (one queued per source at a time) and removing sources with their documents. */
export class SyncService {
  readonly #audit: AuditService;

  constructor(
    private readonly kernel: Kernel,
    private readonly sources: SourceService,
    private readonly documents: DocumentService,
  ) {
    this.#audit = kernel.resolve(tokens.audit);
  }

  async start(source: SourceRow, kind: 'scan' | 'sync'): Promise<string> {
    if (!source.enabled) throw new DocqaError('conflict', `${source.name} is disabled; enable it first.`);
    const running = await this.kernel.jobs.list({ queues: [syncQueue], states: ['queued', 'running'], data: { sourceId: source.id }, limit: 1, offset: 0 });
    if (running.items[0]) return running.items[0].id;
    return this.kernel.jobs.send<SyncJobData>(syncQueue, { sourceId: source.id, sourceType: source.kind, kind }, { singletonKey: source.id, group: source.id });
  }

  async startAll(principal: Principal, ip: string | undefined): Promise<string[]> {
    const ids: string[] = [];
    for (const source of await this.sources.enabled()) ids.push(await this.start(source, source.kind === 'connector' ? 'scan' : 'sync'));
    await this.#audit.record({ type: 'sync.all', actor: { id: principal.userId, username: principal.username }, ip: ip ?? null, target: null, outcome: 'success', details: { jobs: ids.length } });
    return ids;
  }

  async deleteSource(kind: SourceKind, id: string): Promise<void> {
    const source = await this.sources.get(kind, id);
    const pending = await this.kernel.jobs.list({ queues: [syncQueue], states: ['queued', 'running'], data: { sourceId: id }, limit: 100, offset: 0 });
    for (const job of pending.items) await this.kernel.jobs.cancel(job.queue, job.id).catch(() => undefined);
    await deleteSourceDocuments(this.kernel, this.documents, source.id);
    await this.sources.delete(kind, id);
  }
}
