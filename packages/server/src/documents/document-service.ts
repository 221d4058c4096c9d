import type { Request } from 'express';
import busboy from 'busboy';
import { DocqaError, providerTokens, type JobsService, type Logger } from '@docqa/plugin-api';
import type { Kernel } from '@docqa/kernel';
import type { Principal } from '../http/route.js';
import type { GroupsService } from '../identity/groups-service.js';
import { BlobStore, type StagedBlob } from './blob-store.js';
import { DocumentRepository, publicDocument, type DocumentRow } from './document-repository.js';
import { formatBytes, UploadPolicy } from './upload-policy.js';

export const ingestQueue = 'ingest';

export interface IngestJobData {
  documentId: string;
}

interface StagedFile {
  filename: string;
  mediaType: string;
  blob: StagedBlob;
}

const maxFilesPerUpload = 20;

/** Uploads, lists, deletes and moves documents; indexing itself runs as `ingest` jobs. */
export class DocumentService {
  readonly repository: DocumentRepository;
  readonly blobs: BlobStore;
  readonly #policy: UploadPolicy;
  readonly #jobs: JobsService;
  readonly #logger: Logger;

  constructor(
    private readonly kernel: Kernel,
    private readonly groups: GroupsService,
  ) {
    this.repository = new DocumentRepository(kernel.db);
    this.blobs = new BlobStore(kernel.config.dataDir);
    this.#policy = new UploadPolicy(kernel);
    this.#jobs = kernel.jobs;
    this.#logger = kernel.logger.child({ component: 'documents' });
  }

  /**
   * Streams every `file` part to staging, checking type, plan and limits before and while bytes
   * arrive; only when all parts are accepted are they stored and queued. A refusal leaves nothing.
   */
  async upload(req: Request, principal: Principal, connectorId: string | undefined): Promise<Array<ReturnType<typeof publicDocument> & { duplicate: boolean }>> {
    if (connectorId) await this.#refuseConnectorTarget(connectorId);
    if (!req.is('multipart/form-data')) throw new DocqaError('bad_request', 'Send the files as multipart/form-data, each in a part named "file".');
    const staged = await this.#stageParts(req);
    try {
      if (staged.length === 0) throw new DocqaError('validation_failed', 'The upload holds no file; send each file in a part named "file".', { errors: [{ field: 'file', message: 'is required' }] });
      try {
        return await this.#store(staged, principal);
      } catch (error) {
        // Another upload stored the same bytes between our check and our insert: answer that one.
        if ((error as { code?: string }).code !== '23505') throw error;
        return await this.#store(staged, principal);
      }
    } finally {
      await Promise.all(staged.map((file) => this.blobs.discard(file.blob)));
    }
  }

  #stageParts(req: Request): Promise<StagedFile[]> {
    const limits = this.#policy.limits();
    const staged: StagedFile[] = [];
    return new Promise((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({ headers: req.headers, limits: { files: maxFilesPerUpload, fields: 10, fieldSize: 1024, parts: maxFilesPerUpload + 10 } });
      } catch {
        reject(new DocqaError('bad_request', 'The multipart body has no boundary; send it as multipart/form-data.'));
        return;
      }
      let chain: Promise<void> = this.repository.totals().then((totals) => {
        if (limits.documents !== null && totals.documents >= limits.documents) {
          throw new DocqaError('plan_limit', `This plan holds at most ${limits.documents} documents; delete some or upgrade.`, { extra: { limit: limits.documents, current: totals.documents } });
        }
        usedBytes = totals.bytes;
        documentCount = totals.documents;
      });
      let usedBytes = 0;
      let documentCount = 0;
      let failed = false;
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        req.unpipe(parser);
        req.resume();
        reject(error);
      };
      parser.on('file', (field, stream, info) => {
        if (field !== 'file' || failed) {
          stream.resume();
          return;
        }
        // Parts are handled one after another so limits count what the earlier parts added.
        stream.pause();
        chain = chain.then(async () => {
          if (failed) {
            stream.resume();
            return;
          }
          const filename = safeFilename(info.filename);
          const extractor = this.#policy.extractorFor(filename);
          if (limits.documents !== null && documentCount + staged.length + 1 > limits.documents) {
            throw new DocqaError('plan_limit', `This plan holds at most ${limits.documents} documents.`, { extra: { limit: limits.documents, current: documentCount + staged.length } });
          }
          const stagedBytes = staged.reduce((sum, file) => sum + file.blob.sizeBytes, 0);
          const blob = await this.blobs.stage(stream, (bytes) => {
            if (limits.fileSizeBytes !== null && bytes > limits.fileSizeBytes) this.#policy.refuseTooLarge(filename, limits);
            if (limits.storageBytes !== null && usedBytes + stagedBytes + bytes > limits.storageBytes) {
              throw new DocqaError('plan_limit', `Storing ${filename} would pass the ${formatBytes(limits.storageBytes)} of storage this plan has.`, { extra: { limit: limits.storageBytes, current: usedBytes + stagedBytes } });
            }
          });
          if (stream.truncated) throw new DocqaError('bad_request', `${filename} was cut short.`);
          staged.push({ filename, mediaType: extractor.mediaTypes.includes(info.mimeType) ? info.mimeType : (extractor.mediaTypes[0] as string), blob });
        });
        chain.catch(fail);
      });
      parser.on('filesLimit', () => fail(new DocqaError('validation_failed', `An upload may hold at most ${maxFilesPerUpload} files.`)));
      parser.on('error', () => fail(new DocqaError('bad_request', 'The multipart body is malformed.')));
      parser.on('close', () => {
        chain.then(
          () => (failed ? undefined : resolve(staged)),
          (error: unknown) => fail(error),
        );
      });
      req.on('aborted', () => fail(new DocqaError('bad_request', 'The upload was aborted by the client.')));
      req.pipe(parser);
    }).catch(async (error: unknown) => {
      await Promise.all(staged.map((file) => this.blobs.discard(file.blob)));
      throw error;
    }) as Promise<StagedFile[]>;
  }

  async #store(staged: StagedFile[], principal: Principal) {
    // Answer in upload order; the same bytes twice (stored before, or twice in this upload) are one document.
    const byHash = new Map<string, DocumentRow | null>();
    for (const file of staged) {
      if (!byHash.has(file.blob.sha256)) byHash.set(file.blob.sha256, await this.repository.byContent(file.blob.sha256));
    }
    const fresh: StagedFile[] = [];
    for (const file of staged) {
      if (byHash.get(file.blob.sha256) === null && !fresh.some((other) => other.blob.sha256 === file.blob.sha256)) fresh.push(file);
    }
    // Blobs first: a crash after this leaves unreferenced content (swept), never a row without bytes.
    for (const file of fresh) await this.blobs.commit(file.blob);
    const inserted = await this.kernel.db.transaction(async (tx) => {
      const rows: DocumentRow[] = [];
      for (const file of fresh) {
        rows.push(await this.repository.insertUpload(tx, { filename: file.filename, path: file.filename, mediaType: file.mediaType, sizeBytes: file.blob.sizeBytes, contentHash: file.blob.sha256, uploadedBy: principal.userId }));
      }
      return rows;
    });
    // Queued after the commit (the embedded database has one connection, which the transaction
    // holds); a crash in between leaves `pending` documents without a job, which start-up re-queues.
    const created: DocumentRow[] = [];
    for (const row of inserted) created.push(await this.#queueIngest(row.id));
    for (const row of created) this.#logger.info({ document_id: row.id, size_bytes: Number(row.size_bytes) }, 'document uploaded');
    const createdByHash = new Map(created.map((row) => [row.content_hash, row]));
    const answered = new Set<string>();
    return staged.map((file) => {
      const hash = file.blob.sha256;
      const existing = byHash.get(hash);
      const row = existing ?? (createdByHash.get(hash) as DocumentRow);
      const duplicate = existing !== null || answered.has(hash);
      answered.add(hash);
      return { ...publicDocument(row), duplicate };
    });
  }

  /**
   * Writing into a connector's own storage (a filesystem connector's directory) is not built yet:
   * say so clearly rather than storing the file somewhere the connector would not see it.
   */
  async #refuseConnectorTarget(connectorId: string): Promise<never> {
    const { rowCount } = await this.kernel.db.query(`select 1 from source where id = $1 and kind = 'connector'`, [connectorId]);
    if (rowCount === 0) throw new DocqaError('not_found', `Connector ${connectorId} was not found.`);
    throw new DocqaError('validation_failed', 'Uploading into or moving within a connector\'s storage is not supported yet; upload without connector_id, or put the file in the connector\'s directory and scan it.', {
      errors: [{ field: 'query.connector_id', message: 'is not supported yet' }],
    });
  }

  /** Uploads share one group; a source's documents are grouped by the source (see workers.ts). */
  async #queueIngest(documentId: string, sourceId: string | null = null): Promise<DocumentRow> {
    const jobId = await this.#jobs.send<IngestJobData>(ingestQueue, { documentId }, { singletonKey: documentId, group: sourceId ?? 'uploads' });
    return this.repository.setJob(this.kernel.db, documentId, jobId);
  }

  /** Documents accepted but never queued (a crash between commit and queueing) get their job now. */
  async requeueOrphans(): Promise<number> {
    const { rows } = await this.kernel.db.query<{ id: string; source_id: string | null }>(`select id, source_id from document where status = 'pending' and job_id is null`);
    for (const row of rows) await this.#queueIngest(row.id, row.source_id);
    return rows.length;
  }

  async list(principal: Principal, query: { limit: number; offset: number; status?: DocumentRow['status']; q?: string }) {
    const scope = await this.groups.scopeFor(principal);
    const { items, total } = await this.repository.list({ ...(query.status ? { status: query.status } : {}), ...(query.q ? { search: query.q } : {}), visibleToGroups: scope.all ? null : scope.groupIds }, query.limit, query.offset);
    return { items: items.map(publicDocument), total, limit: query.limit, offset: query.offset };
  }

  /** Deletes documents, their vectors and (when no other document shares them) their bytes. */
  async delete(ids: string[]): Promise<{ deleted: string[]; not_found: string[] }> {
    const removed = await this.repository.delete(ids);
    if (removed.length > 0 && this.kernel.container.has(providerTokens.vectorStore)) {
      await this.kernel.resolve(providerTokens.vectorStore).deleteDocuments(removed.map((row) => row.id));
    }
    for (const hash of new Set(removed.map((row) => row.content_hash))) {
      if (!(await this.repository.isContentReferenced(hash))) await this.blobs.remove(hash);
    }
    const deleted = removed.map((row) => row.id);
    return { deleted, not_found: ids.filter((id) => !deleted.includes(id)) };
  }

  async move(documentId: string, targetPath: string, connectorId: string | undefined) {
    if (connectorId) await this.#refuseConnectorTarget(connectorId);
    const moved = await this.repository.move(documentId, targetPath);
    if (!moved) throw new DocqaError('not_found', `Document ${documentId} was not found.`);
    return publicDocument(moved);
  }
}

/** Keeps the last path segment of a client's file name, without control characters. */
function safeFilename(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  if (!clean || clean === '.' || clean === '..') throw new DocqaError('validation_failed', 'Each file part needs a file name.', { errors: [{ field: 'file', message: 'needs a filename' }] });
  return clean;
}
