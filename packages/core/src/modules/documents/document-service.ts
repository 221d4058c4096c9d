import { DocqaError, type JobsService, type Logger, type PlanLimits } from '@docqa/plugin-api';
import type { DocumentsEnvironment } from './environment.js';
import { ingestQueue, type IngestJobData } from './queues.js';
import type { Principal } from '../identity/contract.js';
import type { GroupsService } from '../groups/contract.js';
import type { SourceService } from '../sources/contract.js';
import { BlobStore, type StagedBlob } from './blob-store.js';
import { openFile, readContent, type DocumentContent, type DocumentFile } from './document-content.js';
import { ConnectorDocuments, type ConnectorUploadFile } from './connector-documents.js';
import { ConnectorTargets, isRelativeSourcePath, type ConnectorTarget } from './connector-targets.js';
import { DocumentRepository, publicDocument, type DocumentRow } from './document-repository.js';
import { formatBytes, UploadPolicy } from './upload-policy.js';
import { flushVectorDeletions } from './vector-deletions.js';
import { multipartParts, type MultipartPart, type UploadBody } from './multipart-parts.js';

/**
 * Chunks deleted per group of documents (see DocumentService.delete). On the embedded database a
 * deleted chunk costs about a millisecond with its postings and vector; one statement for a
 * 364-document source of 20,831 chunks kept the connection for over 30 s, the pool's wait limit.
 */
const chunksPerDeletion = 2_000;

interface StagedFile {
  filename: string;
  mediaType: string;
  blob: StagedBlob;
  /** Where the file goes in the target connector (connector-relative); absent for plain uploads. */
  targetPath?: string;
}

/** Where an upload's files go: DocQA's own storage, or a connector's (then below `directory`). */
interface UploadTarget {
  connector: ConnectorTarget | null;
  /** Connector-relative directory, '' for the connector's root. */
  directory: string;
}

/** What an upload request says besides its files: from the query, or form fields sent before the files. */
export interface UploadOptions {
  connectorId?: string | undefined;
  directory?: string | undefined;
}

export interface DocumentListQuery {
  limit: number;
  offset: number;
  status?: DocumentRow['status'];
  q?: string;
  sourceType?: 'upload' | 'connector' | 'integration';
  sourceId?: string;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const maxFilesPerUpload = 20;

/** Uploads, lists, deletes and moves documents; indexing itself runs as `ingest` jobs. */
export class DocumentService {
  readonly repository: DocumentRepository;
  readonly blobs: BlobStore;
  /** What decides whether a file may be stored: a sync checks its files with it too. */
  readonly policy: UploadPolicy;
  readonly #jobs: JobsService;
  readonly #logger: Logger;
  readonly #targets: ConnectorTargets;
  readonly #connectorDocuments: ConnectorDocuments;

  constructor(
    private readonly env: DocumentsEnvironment,
    private readonly groups: GroupsService,
    sources: SourceService,
  ) {
    this.#targets = new ConnectorTargets(sources);
    this.repository = new DocumentRepository(env.db);
    this.blobs = new BlobStore(env.dataDir);
    this.policy = new UploadPolicy(env.license, env.extractors);
    this.#jobs = env.jobs;
    this.#logger = env.logger.child({ component: 'documents' });
    this.#connectorDocuments = new ConnectorDocuments({
      db: env.db,
      repository: this.repository,
      blobs: this.blobs,
      logger: this.#logger,
      queueIngest: (documentId, sourceId) => this.#queueIngest(documentId, sourceId),
    });
  }

  /**
   * Streams every `file` part to staging, checking type, plan and limits before and while bytes
   * arrive; only when all parts are accepted are they stored and queued. A refusal leaves nothing
   * stored and the rest of the body unread (the HTTP layer drains it).
   */
  async upload(
    body: UploadBody,
    principal: Principal,
    options: UploadOptions = {},
  ): Promise<Array<ReturnType<typeof publicDocument> & { duplicate: boolean }>> {
    const target: UploadTarget = {
      connector: options.connectorId ? await this.#targets.resolve(options.connectorId, 'query.connector_id') : null,
      directory: options.directory ?? '',
    };
    if (!isMultipartForm(body.contentType))
      throw new DocqaError('bad_request', 'Send the files as multipart/form-data, each in a part named "file".');
    const staged: StagedFile[] = [];
    try {
      await this.#stageParts(body, target, staged);
      if (staged.length === 0)
        throw new DocqaError('validation_failed', 'The upload holds no file; send each file in a part named "file".', {
          errors: [{ field: 'file', message: 'is required' }],
        });
      if (target.connector)
        return await this.#connectorDocuments.storeUpload(staged as ConnectorUploadFile[], target.connector, principal);
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

  /**
   * Reads the parts in order, each checked against what the earlier ones added. The document limit
   * is checked before the first byte of the body is read, so a full plan refuses at once.
   */
  async #stageParts(body: UploadBody, target: UploadTarget, staged: StagedFile[]): Promise<void> {
    const limits = this.policy.limits();
    const totals = await this.repository.totals();
    if (limits.documents !== null && totals.documents >= limits.documents) {
      throw new DocqaError(
        'plan_limit',
        `This plan holds at most ${limits.documents} documents; delete some or upgrade.`,
        { extra: { limit: limits.documents, current: totals.documents } },
      );
    }
    let filesSeen = false;
    for await (const part of multipartParts(body, { files: maxFilesPerUpload, fields: 10, fieldSize: 1024 })) {
      if (part.kind === 'field') {
        // connector_id and directory may come as form fields, before the files: each file is checked
        // against its target as it arrives, so a field after the first file comes too late.
        if (part.name === 'connector_id' || part.name === 'directory')
          await this.#applyUploadField(target, part.name, part.value, filesSeen);
        continue;
      }
      if (part.name !== 'file') {
        part.stream.resume();
        continue;
      }
      filesSeen = true;
      staged.push(await this.#stageFile(part, target, staged, limits, totals));
    }
  }

  async #stageFile(
    part: Extract<MultipartPart, { kind: 'file' }>,
    target: UploadTarget,
    staged: StagedFile[],
    limits: PlanLimits,
    totals: { documents: number; bytes: number },
  ): Promise<StagedFile> {
    // Until its checks pass, the part's bytes stay unread.
    const filename = safeFilename(part.filename);
    const extractor = this.policy.extractorFor(filename);
    if (limits.documents !== null && totals.documents + staged.length + 1 > limits.documents) {
      throw new DocqaError('plan_limit', `This plan holds at most ${limits.documents} documents.`, {
        extra: { limit: limits.documents, current: totals.documents + staged.length },
      });
    }
    const targetPath = await this.#connectorPathFor(target, filename, staged);
    const stagedBytes = staged.reduce((sum, file) => sum + file.blob.sizeBytes, 0);
    const blob = await this.blobs
      .stage(part.stream, (bytes) => {
        if (limits.fileSizeBytes !== null && bytes > limits.fileSizeBytes) this.policy.refuseTooLarge(filename, limits);
        if (limits.storageBytes !== null && totals.bytes + stagedBytes + bytes > limits.storageBytes) {
          throw new DocqaError(
            'plan_limit',
            `Storing ${filename} would pass the ${formatBytes(limits.storageBytes)} of storage this plan has.`,
            { extra: { limit: limits.storageBytes, current: totals.bytes + stagedBytes } },
          );
        }
      })
      .catch((error: unknown) => {
        // The part's own stream failing is the body's fault (cut short, malformed); the disk's is ours.
        if (!DocqaError.is(error) && part.stream.errored)
          throw new DocqaError('bad_request', `${filename} was cut short: the multipart body ended inside it.`);
        throw error;
      });
    const file: StagedFile = {
      filename,
      mediaType: extractor.mediaTypes.includes(part.mimeType) ? part.mimeType : (extractor.mediaTypes[0] as string),
      blob,
      ...(targetPath === undefined ? {} : { targetPath }),
    };
    if (part.stream.truncated) {
      await this.blobs.discard(blob);
      throw new DocqaError('bad_request', `${filename} was cut short.`);
    }
    return file;
  }

  async #store(staged: StagedFile[], principal: Principal) {
    // Answer in upload order; the same bytes twice (stored before, or twice in this upload) are one document.
    const byHash = new Map<string, DocumentRow | null>();
    for (const file of staged) {
      if (!byHash.has(file.blob.sha256))
        byHash.set(file.blob.sha256, await this.repository.byContent(file.blob.sha256));
    }
    const fresh: StagedFile[] = [];
    for (const file of staged) {
      if (byHash.get(file.blob.sha256) === null && !fresh.some((other) => other.blob.sha256 === file.blob.sha256))
        fresh.push(file);
    }
    // Blobs first: a crash after this leaves unreferenced content (swept), never a row without bytes.
    for (const file of fresh) await this.blobs.commit(file.blob);
    const inserted = await this.env.db.transaction(async (tx) => {
      const rows: DocumentRow[] = [];
      for (const file of fresh) {
        rows.push(
          await this.repository.insertUpload(tx, {
            filename: file.filename,
            path: file.filename,
            mediaType: file.mediaType,
            sizeBytes: file.blob.sizeBytes,
            contentHash: file.blob.sha256,
            uploadedBy: principal.userId,
          }),
        );
      }
      return rows;
    });
    // Queued after the commit (the embedded database has one connection, which the transaction
    // holds); a crash in between leaves `pending` documents without a job, which start-up re-queues.
    const created: DocumentRow[] = [];
    for (const row of inserted) created.push(await this.#queueIngest(row.id));
    for (const row of created)
      this.#logger.info({ document_id: row.id, size_bytes: Number(row.size_bytes) }, 'document uploaded');
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

  async #applyUploadField(
    target: UploadTarget,
    name: 'connector_id' | 'directory',
    value: string,
    afterFiles: boolean,
  ): Promise<void> {
    const field = `body.${name}`;
    const refuse = (message: string, detail: string) =>
      new DocqaError('validation_failed', detail, { errors: [{ field, message }] });
    if (afterFiles)
      throw refuse(
        'must come before the file parts',
        `Send the ${name} field before the file parts: files are checked against their target as they arrive.`,
      );
    if (name === 'directory') {
      if (!isRelativeSourcePath(value))
        throw refuse(
          'must be a relative path without ".", ".." or empty segments',
          `Directory '${value}' is not a relative path inside the connector.`,
        );
      if (target.directory && target.directory !== value)
        throw refuse(
          "differs from the query's directory",
          'The directory form field and the directory query parameter differ.',
        );
      target.directory = value;
      return;
    }
    if (!uuidPattern.test(value)) throw refuse('must be a UUID', `connector_id '${value}' is not a UUID.`);
    if (target.connector) {
      if (target.connector.source.id !== value.toLowerCase())
        throw refuse(
          "differs from the query's connector_id",
          'The connector_id form field and the connector_id query parameter differ.',
        );
      return;
    }
    target.connector = await this.#targets.resolve(value, field);
  }

  /**
   * The connector-relative path a file part goes to, checked before its bytes are read: the
   * connector's border (the plugin's own checks) and no file or document already at that path.
   */
  async #connectorPathFor(target: UploadTarget, filename: string, staged: StagedFile[]): Promise<string | undefined> {
    if (!target.connector) {
      if (target.directory)
        throw new DocqaError('validation_failed', 'directory places files inside a connector; send connector_id too.', {
          errors: [{ field: 'directory', message: 'needs connector_id' }],
        });
      return undefined;
    }
    const targetPath = target.directory ? `${target.directory}/${filename}` : filename;
    await this.#connectorDocuments.checkUploadPath(
      target.connector,
      targetPath,
      staged.flatMap((file) => (file.targetPath === undefined ? [] : [file.targetPath])),
    );
    return targetPath;
  }

  /** Uploads share one group; a source's documents are grouped by the source (see workers.ts). */
  async #queueIngest(documentId: string, sourceId: string | null = null): Promise<DocumentRow> {
    const jobId = await this.#jobs.send<IngestJobData>(
      ingestQueue,
      { documentId },
      { singletonKey: documentId, group: sourceId ?? 'uploads' },
    );
    return this.repository.setJob(this.env.db, documentId, jobId);
  }

  /** Documents accepted but never queued (a crash between commit and queueing) get their job now. */
  async requeueOrphans(): Promise<number> {
    const { rows } = await this.env.db.query<{ id: string; source_id: string | null }>(
      `select id, source_id from document where status = 'pending' and job_id is null`,
    );
    for (const row of rows) await this.#queueIngest(row.id, row.source_id);
    return rows.length;
  }

  async list(principal: Principal, query: DocumentListQuery) {
    const scope = await this.groups.scopeFor(principal);
    const filter = {
      ...(query.status ? { status: query.status } : {}),
      ...(query.q ? { search: query.q } : {}),
      ...(query.sourceType ? { sourceType: query.sourceType } : {}),
      ...(query.sourceId ? { sourceId: query.sourceId } : {}),
      visibleToGroups: scope.all ? null : scope.groupIds,
    };
    const { items, total } = await this.repository.list(filter, query.limit, query.offset);
    return { items: items.map(publicDocument), total, limit: query.limit, offset: query.offset };
  }

  /** One document the caller may see; 404 alike for one that does not exist and one outside their groups. */
  async get(principal: Principal, id: string) {
    return publicDocument(await this.#visible(principal, id));
  }

  /**
   * `limit` characters of a readable document's extracted text from `offset`, with its section map
   * and pages; 409 (reason `reindex_required`) for a text indexing did not keep with its layout.
   */
  async content(principal: Principal, id: string, offset: number, limit: number): Promise<DocumentContent> {
    return readContent(this.env.db, await this.#visible(principal, id), offset, limit);
  }

  /** The original bytes of a readable document; 409 (reason `file_missing`) when they are gone. */
  async file(principal: Principal, id: string): Promise<DocumentFile> {
    const row = await this.#visible(principal, id);
    return openFile(this.blobs.pathOf(row.content_hash), row);
  }

  async #visible(principal: Principal, id: string): Promise<DocumentRow> {
    const scope = await this.groups.scopeFor(principal);
    const row = await this.repository.visibleById(id, scope.all ? null : scope.groupIds);
    if (!row) throw new DocqaError('not_found', `Document ${id} was not found.`);
    return row;
  }

  /**
   * Deletes documents, their vectors and (when no other document shares them) their bytes, in
   * groups of about `chunksPerDeletion` chunks. Each group is a few short statements, so a big
   * source or bulk delete does not hold the embedded database's one connection for long: requests
   * and jobs get their turn between groups instead of timing out behind one long statement.
   */
  async delete(ids: string[], chunksPerGroup = chunksPerDeletion): Promise<{ deleted: string[]; not_found: string[] }> {
    const deleted = new Set<string>();
    for (const group of await this.repository.deletionGroups(ids, chunksPerGroup)) {
      const removed = await this.repository.delete(group);
      // The vectors may live on another server: queued with the deletion, deleted now or by the sweep.
      if (removed.length > 0)
        await flushVectorDeletions(
          this.env,
          removed.map((row) => row.id),
        ).catch((error: unknown) =>
          this.#logger.warn({ err: error }, 'vectors of deleted documents stay queued for the sweep'),
        );
      for (const hash of new Set(removed.map((row) => row.content_hash))) {
        if (!(await this.repository.isContentReferenced(hash))) await this.blobs.remove(hash);
      }
      for (const row of removed) deleted.add(row.id);
    }
    return { deleted: [...deleted], not_found: ids.filter((id) => !deleted.has(id)) };
  }

  /**
   * DELETE /api/docs/{id}. With connector_id, the document's file goes from the connector's storage
   * too (first: should forgetting the document fail, the next scan still sees the file gone and
   * finishes the job). Without it, only the index forgets the document.
   */
  async deleteOne(id: string, connectorId: string | undefined): Promise<void> {
    if (connectorId) {
      const target = await this.#targets.resolve(connectorId, 'query.connector_id');
      const document = await this.repository.byId(id);
      if (!document) throw new DocqaError('not_found', `Document ${id} was not found.`);
      await this.#connectorDocuments.deleteFile(document, target);
    }
    const { deleted } = await this.delete([id]);
    if (deleted.length === 0) throw new DocqaError('not_found', `Document ${id} was not found.`);
  }

  /**
   * POST /api/docs/move. `targetPath` is connector-scoped (relative to the connector's root) when
   * the document belongs to a connector or `connectorId` names one; then the file moves in the
   * connector's storage and the document follows, keeping its id, chunks and vectors. An upload
   * moved into a connector has its bytes written there and becomes that connector's document.
   * Otherwise (uploads, integrations' documents) only the document's path changes.
   */
  async move(
    documentId: string,
    targetPath: string,
    connectorId: string | undefined,
    connectorField = 'body.connector_id',
  ) {
    const named = connectorId ? await this.#targets.resolve(connectorId, connectorField) : null;
    const document = await this.repository.byId(documentId);
    if (!document) throw new DocqaError('not_found', `Document ${documentId} was not found.`);
    const ownConnector = document.source_type === 'connector' ? document.source_id : null;
    if (!named && !ownConnector) {
      const moved = await this.repository.move(documentId, targetPath);
      if (!moved) throw new DocqaError('not_found', `Document ${documentId} was not found.`);
      return publicDocument(moved);
    }
    if (named && document.source_type !== 'upload' && document.source_id !== named.source.id) {
      throw new DocqaError(
        'validation_failed',
        `Document ${documentId} belongs to another ${document.source_type}; documents move within their connector, or from uploads into a connector.`,
        {
          errors: [{ field: connectorField, message: "is not the document's connector" }],
        },
      );
    }
    const target = named ?? (await this.#targets.resolve(ownConnector as string, 'body.document_id'));
    if (!isRelativeSourcePath(targetPath))
      throw new DocqaError('validation_failed', `'${targetPath}' is not a path inside the connector.`, {
        errors: [{ field: 'body.target_path', message: 'must be a relative path' }],
      });
    return publicDocument(await this.#connectorDocuments.move(document, target, targetPath));
  }
}

/** `multipart/form-data`, whatever its parameters and case. */
function isMultipartForm(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'multipart/form-data';
}

/** Keeps the last path segment of a client's file name, without control characters. */
function safeFilename(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 255);
  if (!clean || clean === '.' || clean === '..')
    throw new DocqaError('validation_failed', 'Each file part needs a file name.', {
      errors: [{ field: 'file', message: 'needs a filename' }],
    });
  return clean;
}
