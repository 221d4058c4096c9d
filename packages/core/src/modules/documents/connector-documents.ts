import fs from 'node:fs';
import path from 'node:path';
import { DocqaError, type Db, type Logger } from '@docqa/plugin-api';
import type { Principal } from '../identity/contract.js';
import type { BlobStore, StagedBlob } from './blob-store.js';
import { inRequestTerms, type ConnectorTarget } from './connector-targets.js';
import { publicDocument, type DocumentRepository, type DocumentRow } from './document-repository.js';

/** One accepted part of an upload into a connector, staged and counted like any upload. */
export interface ConnectorUploadFile {
  filename: string;
  mediaType: string;
  blob: StagedBlob;
  /** Connector-relative path the file goes to. */
  targetPath: string;
}

export interface ConnectorDocumentsDeps {
  db: Db;
  repository: DocumentRepository;
  blobs: BlobStore;
  logger: Logger;
  /** Queues a document's ingest in its source's group (DocumentService). */
  queueIngest(documentId: string, sourceId: string): Promise<DocumentRow>;
}

/**
 * Documents whose file DocQA itself writes, moves or deletes in a connector's storage (see
 * documents-and-sources.md): each document is recorded as the connector's scans record files
 * (source, path as externalId, size, content hash), so the next scan finds what it expects.
 */
export class ConnectorDocuments {
  constructor(private readonly deps: ConnectorDocumentsDeps) {}

  /** Refuses, before a byte of the file is read, a path taken or refused by the connector. */
  async checkUploadPath(target: ConnectorTarget, targetPath: string, pathsBefore: readonly string[]): Promise<void> {
    if (pathsBefore.includes(targetPath)) {
      throw new DocqaError(
        'conflict',
        `Two files of this upload would both be '${targetPath}' in ${target.source.name}.`,
        { errors: [{ field: 'file', message: 'appears twice' }] },
      );
    }
    await this.#refuseTakenPath(target, targetPath, 'file');
    try {
      await target.storage.checkWritable(targetPath);
    } catch (error) {
      throw inRequestTerms(error, { path: 'file' });
    }
  }

  /**
   * Writes the staged files into the connector's storage, then records each as the connector's
   * document and queues its ingest. All or nothing, as uploads are: when one write fails, the files
   * written before it are deleted again.
   */
  async storeUpload(files: readonly ConnectorUploadFile[], target: ConnectorTarget, principal: Principal) {
    const written: string[] = [];
    try {
      for (const file of files)
        written.push((await target.storage.write(file.targetPath, fs.createReadStream(file.blob.tempPath))).externalId);
    } catch (error) {
      for (const externalId of written) {
        await target.storage
          .delete(externalId)
          .catch((cause: unknown) =>
            this.deps.logger.warn(
              { source_id: target.source.id, path: externalId, error: (cause as Error).message },
              'could not take back a file of a refused upload',
            ),
          );
      }
      throw inRequestTerms(error, { path: 'file' });
    }
    for (const file of files) await this.deps.blobs.commit(file.blob);
    const answers: Array<ReturnType<typeof publicDocument> & { duplicate: boolean }> = [];
    for (const [index, file] of files.entries()) {
      const externalId = written[index] as string;
      const row = await this.deps.repository.insertSourceFile(this.deps.db, {
        sourceId: target.source.id,
        externalId,
        path: externalId,
        filename: file.filename,
        title: file.filename,
        mediaType: file.mediaType,
        sizeBytes: file.blob.sizeBytes,
        contentHash: file.blob.sha256,
        uploadedBy: principal.userId,
      });
      if (row) {
        const queued = await this.deps.queueIngest(row.id, target.source.id);
        this.deps.logger.info(
          { document_id: row.id, source_id: target.source.id, path: externalId, size_bytes: Number(row.size_bytes) },
          'document uploaded into a connector',
        );
        answers.push({ ...publicDocument(queued), duplicate: false });
      } else {
        // A scan found the new file between our write and this insert: that document is this file.
        answers.push({
          ...publicDocument(
            (await this.deps.repository.bySourceExternalId('connector', target.source.id, externalId)) as DocumentRow,
          ),
          duplicate: true,
        });
      }
    }
    return answers;
  }

  /** Deletes the file of one of the connector's documents (the caller then deletes the document). */
  async deleteFile(document: DocumentRow, target: ConnectorTarget): Promise<void> {
    if (document.source_type !== 'connector' || document.source_id !== target.source.id) {
      throw new DocqaError('validation_failed', `Document ${document.id} does not belong to ${target.source.name}.`, {
        errors: [{ field: 'query.connector_id', message: "is not the document's connector" }],
      });
    }
    try {
      await target.storage.delete(document.external_id ?? document.path);
    } catch (error) {
      throw inRequestTerms(error, { path: 'id' });
    }
  }

  /** Moves a document of the connector within it, or an upload into it; chunks and vectors stay. */
  async move(document: DocumentRow, target: ConnectorTarget, targetPath: string): Promise<DocumentRow> {
    return document.source_id === target.source.id
      ? this.#moveWithin(document, target, targetPath)
      : this.#moveUploadInto(document, target, targetPath);
  }

  async #moveWithin(document: DocumentRow, target: ConnectorTarget, targetPath: string): Promise<DocumentRow> {
    const from = document.external_id ?? document.path;
    if (from === targetPath) return document;
    await this.#refuseTakenPath(target, targetPath, 'body.target_path');
    let stored;
    try {
      stored = await target.storage.move(from, targetPath);
    } catch (error) {
      if (DocqaError.is(error, 'not_found')) {
        throw new DocqaError(
          'conflict',
          `The file of document ${document.id} ('${from}') is no longer in ` +
            `${target.source.name}; scan the connector to bring the index up to date.`,
          { cause: error },
        );
      }
      throw inRequestTerms(error, { to: 'body.target_path', from: 'body.document_id' });
    }
    const moved = await this.deps.repository.relocate(document.id, {
      sourceType: 'connector',
      sourceId: target.source.id,
      externalId: stored.externalId,
      path: stored.path,
      filename: path.posix.basename(stored.path),
    });
    if (!moved)
      throw new DocqaError(
        'not_found',
        `Document ${document.id} was deleted while it moved; its file is now '${stored.path}'.`,
      );
    this.deps.logger.info(
      { document_id: document.id, source_id: target.source.id, from, to: stored.path },
      'document moved in its connector',
    );
    return moved;
  }

  /** An upload's stored bytes are written into the connector, and the document changes owner. */
  async #moveUploadInto(document: DocumentRow, target: ConnectorTarget, targetPath: string): Promise<DocumentRow> {
    await this.#refuseTakenPath(target, targetPath, 'body.target_path');
    let stored;
    try {
      stored = await target.storage.write(
        targetPath,
        fs.createReadStream(this.deps.blobs.pathOf(document.content_hash)),
      );
    } catch (error) {
      throw inRequestTerms(error, { path: 'body.target_path' });
    }
    let moved: DocumentRow | null = null;
    try {
      moved = await this.deps.repository.relocate(document.id, {
        sourceType: 'connector',
        sourceId: target.source.id,
        externalId: stored.externalId,
        path: stored.path,
        filename: path.posix.basename(stored.path),
      });
    } finally {
      // The document is gone or could not be updated: the written copy would only become a duplicate.
      if (!moved) await target.storage.delete(stored.externalId).catch(() => undefined);
    }
    if (!moved) throw new DocqaError('not_found', `Document ${document.id} was not found.`);
    this.deps.logger.info(
      { document_id: document.id, source_id: target.source.id, path: stored.path },
      'uploaded document moved into a connector',
    );
    return moved;
  }

  /** A document of the connector at that path (its file may be gone, the scan not run yet) is a conflict too. */
  async #refuseTakenPath(target: ConnectorTarget, targetPath: string, field: string): Promise<void> {
    const taken = await this.deps.repository.bySourceExternalId('connector', target.source.id, targetPath);
    if (taken)
      throw new DocqaError(
        'conflict',
        `${target.source.name} already has a document at '${targetPath}'; delete it first or choose another path.`,
        { errors: [{ field, message: 'already exists' }] },
      );
  }
}
