import crypto from 'node:crypto';
import { pageTotal, type Db, type SqlExecutor } from '@docqa/plugin-api';
import { documentAccessPredicate } from '../groups/contract.js';

export type DocumentStatus = 'pending' | 'indexing' | 'indexed' | 'failed';

export interface DocumentRow {
  id: string;
  source_type: 'upload' | 'connector' | 'integration';
  source_id: string | null;
  /** The id the source announces the document under (a connector-relative path); null for uploads. */
  external_id: string | null;
  path: string;
  filename: string;
  media_type: string;
  size_bytes: string;
  content_hash: string;
  status: DocumentStatus;
  error: string | null;
  job_id: string | null;
  title: string | null;
  metadata: Record<string, string>;
  chunk_count: number;
  uploaded_by: string | null;
  created_at: string;
  updated_at: string;
  indexed_at: string | null;
}

/** The document record the API answers. */
export function publicDocument(row: DocumentRow) {
  const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());
  return {
    id: row.id,
    filename: row.filename,
    path: row.path,
    title: row.title,
    media_type: row.media_type,
    size_bytes: Number(row.size_bytes),
    content_hash: row.content_hash,
    status: row.status,
    error: row.error,
    job_id: row.job_id,
    source_type: row.source_type,
    source_id: row.source_id,
    chunk_count: row.chunk_count,
    metadata: row.metadata,
    created_at: iso(row.created_at) as string,
    updated_at: iso(row.updated_at) as string,
    indexed_at: iso(row.indexed_at),
  };
}

export interface NewDocument {
  filename: string;
  path: string;
  mediaType: string;
  sizeBytes: number;
  contentHash: string;
  uploadedBy: string | null;
}

/** A file DocQA itself stored into a connector: recorded as that connector's sync would record it. */
export interface NewSourceFile extends NewDocument {
  sourceId: string;
  externalId: string;
  title: string;
}

/** Where a document lives: its source and its place there. */
export interface DocumentPlace {
  sourceType: DocumentRow['source_type'];
  sourceId: string | null;
  externalId: string | null;
  path: string;
  filename: string;
}

export interface DocumentFilter {
  status?: DocumentStatus;
  /** Case-insensitive part of the file name, path or title. */
  search?: string;
  /** Where the documents came from: uploads, or a connector's or integration's. */
  sourceType?: 'upload' | 'connector' | 'integration';
  /** One connector or integration. */
  sourceId?: string;
  /** Null: every document. Otherwise only documents these groups may see (accessPredicate). */
  visibleToGroups: string[] | null;
}

export class DocumentRepository {
  constructor(private readonly db: Db) {}

  async totals(): Promise<{ documents: number; bytes: number }> {
    const { rows } = await this.db.query<{ documents: string; bytes: string | null }>(
      'select count(*) as documents, sum(size_bytes) as bytes from document',
    );
    return { documents: Number(rows[0]?.documents ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
  }

  /** The document if it exists and the groups may see it (null: every document is visible). */
  async visibleById(id: string, visibleToGroups: string[] | null): Promise<DocumentRow | null> {
    const { rows } = await this.db.query<DocumentRow>(
      'select d.* from document d where d.id = $1 ' +
        `${visibleToGroups ? `and ${documentAccessPredicate('d', '$2')}` : ''}`,
      visibleToGroups ? [id, visibleToGroups] : [id],
    );
    return rows[0] ?? null;
  }

  async byId(id: string, tx: SqlExecutor = this.db): Promise<DocumentRow | null> {
    const { rows } = await tx.query<DocumentRow>('select * from document where id = $1', [id]);
    return rows[0] ?? null;
  }

  /** The document, now `indexing`: an ingest's first statement, one instead of a read and an update. */
  async claimForIndexing(id: string): Promise<DocumentRow | null> {
    const { rows } = await this.db.query<DocumentRow>(
      `update document set status = 'indexing', error = null, updated_at = now() where id = $1 returning *`,
      [id],
    );
    return rows[0] ?? null;
  }

  async byContent(contentHash: string): Promise<DocumentRow | null> {
    const { rows } = await this.db.query<DocumentRow>(
      `select * from document where source_type = 'upload' and source_id is null and content_hash = $1`,
      [contentHash],
    );
    return rows[0] ?? null;
  }

  async insertUpload(tx: SqlExecutor, doc: NewDocument): Promise<DocumentRow> {
    const { rows } = await tx.query<DocumentRow>(
      `insert into document (id, source_type, path, filename, media_type, size_bytes, content_hash, status, uploaded_by)
       values ($1, 'upload', $2, $3, $4, $5, $6, 'pending', $7) returning *`,
      [crypto.randomUUID(), doc.path, doc.filename, doc.mediaType, doc.sizeBytes, doc.contentHash, doc.uploadedBy],
    );
    return rows[0] as DocumentRow;
  }

  /**
   * Null when the connector already has a document with that externalId (a scan that found the file
   * first): the caller answers that one.
   */
  async insertSourceFile(tx: SqlExecutor, doc: NewSourceFile): Promise<DocumentRow | null> {
    const { rows } = await tx.query<DocumentRow>(
      `insert into document (id, source_type, source_id, external_id, path, filename, title, media_type, size_bytes,
        content_hash, status, uploaded_by)
       values ($1, 'connector', $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10)
       on conflict (source_type, source_id, external_id) where external_id is not null do nothing returning *`,
      [
        crypto.randomUUID(),
        doc.sourceId,
        doc.externalId,
        doc.path,
        doc.filename,
        doc.title,
        doc.mediaType,
        doc.sizeBytes,
        doc.contentHash,
        doc.uploadedBy,
      ],
    );
    return rows[0] ?? null;
  }

  async bySourceExternalId(
    sourceType: DocumentRow['source_type'],
    sourceId: string,
    externalId: string,
  ): Promise<DocumentRow | null> {
    const { rows } = await this.db.query<DocumentRow>(
      'select * from document where source_type = $1 and source_id = $2 and external_id = $3',
      [sourceType, sourceId, externalId],
    );
    return rows[0] ?? null;
  }

  /** Gives a document another place, keeping its id, chunks and vectors. */
  async relocate(id: string, place: DocumentPlace): Promise<DocumentRow | null> {
    const { rows } = await this.db.query<DocumentRow>(
      'update document set source_type = $2, source_id = $3, external_id = $4, path = $5, ' +
        'filename = $6, updated_at = now() where id = $1 returning *',
      [id, place.sourceType, place.sourceId, place.externalId, place.path, place.filename],
    );
    return rows[0] ?? null;
  }

  async setJob(tx: SqlExecutor, id: string, jobId: string): Promise<DocumentRow> {
    const { rows } = await tx.query<DocumentRow>(
      'update document set job_id = $2, updated_at = now() where id = $1 returning *',
      [id, jobId],
    );
    return rows[0] as DocumentRow;
  }

  async list(filter: DocumentFilter, limit: number, offset: number): Promise<{ items: DocumentRow[]; total: number }> {
    const where: string[] = [];
    const values: unknown[] = [limit, offset];
    if (filter.status) {
      values.push(filter.status);
      where.push(`d.status = $${values.length}`);
    }
    if (filter.search) {
      values.push(`%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(
        `(d.filename ilike $${values.length} or d.path ilike $${values.length} ` +
          `or coalesce(d.title, '') ilike $${values.length})`,
      );
    }
    if (filter.sourceType) {
      values.push(filter.sourceType);
      where.push(`d.source_type = $${values.length}`);
    }
    if (filter.sourceId) {
      values.push(filter.sourceId);
      where.push(`d.source_id = $${values.length}`);
    }
    if (filter.visibleToGroups) {
      values.push(filter.visibleToGroups);
      where.push(documentAccessPredicate('d', `$${values.length}`));
    }
    // Newest first; one upload's documents share their transaction's time, and among them the path
    // orders (then the id): a stable order a reader can follow from page to page.
    // The total as a scalar subquery (run once) rather than `count(*) over ()`: the window kept every
    // matching document's whole row in memory to count them, and read them all before the page's
    // first; now the count reads no row data and the page stops after limit + offset rows.
    const condition = where.length ? `where ${where.join(' and ')}` : '';
    const sql = `select d.*, (select count(*) from document d ${condition}) as total from document d ${condition}
      order by d.created_at desc, d.path, d.id limit $1 offset $2`;
    const { rows } = await this.db.query<DocumentRow & { total: string }>(sql, values);
    const firstRow = async () =>
      (await this.db.query<DocumentRow & { total: string }>(sql, [1, 0, ...values.slice(2)])).rows;
    return { items: rows, total: await pageTotal(rows, offset, (row) => row.total, firstRow) };
  }

  /**
   * The existing documents among `ids`, in groups of at most `maxChunks` chunks (a larger document
   * is a group of its own); ids that name no document are left out.
   */
  async deletionGroups(ids: string[], maxChunks: number): Promise<string[][]> {
    const { rows } = await this.db.query<{ id: string; chunk_count: number }>(
      'select id, chunk_count from document where id = any($1::uuid[]) order by created_at, id',
      [ids],
    );
    const groups: string[][] = [];
    let group: string[] = [];
    let chunks = 0;
    for (const row of rows) {
      if (group.length > 0 && chunks + row.chunk_count > maxChunks) {
        groups.push(group);
        group = [];
        chunks = 0;
      }
      group.push(row.id);
      chunks += row.chunk_count;
    }
    if (group.length > 0) groups.push(group);
    return groups;
  }

  async delete(ids: string[], tx: SqlExecutor = this.db): Promise<Array<{ id: string; content_hash: string }>> {
    const { rows } = await tx.query<{ id: string; content_hash: string }>(
      'delete from document where id = any($1::uuid[]) returning id, content_hash',
      [ids],
    );
    return rows;
  }

  async isContentReferenced(contentHash: string): Promise<boolean> {
    const { rowCount } = await this.db.query('select 1 from document where content_hash = $1 limit 1', [contentHash]);
    return rowCount > 0;
  }

  async move(id: string, path: string): Promise<DocumentRow | null> {
    const { rows } = await this.db.query<DocumentRow>(
      'update document set path = $2, updated_at = now() where id = $1 returning *',
      [id, path],
    );
    return rows[0] ?? null;
  }
}
