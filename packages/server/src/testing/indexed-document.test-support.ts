import crypto from 'node:crypto';
import type { SqlExecutor } from '@docqa/plugin-api';
import { chunkId } from '@docqa/core/documents';
import { analyseChunks, writePostings } from '@docqa/core/search';

/** Chunks with their lengths in terms, their postings, and the document's length, as the ingest writes them. */
export async function insertChunks(tx: SqlExecutor, documentId: string, texts: readonly string[]): Promise<void> {
  const chunks = analyseChunks(texts.map((text, position) => ({ id: chunkId(documentId, position), text })));
  for (const [position, chunk] of chunks.entries()) {
    await tx.query(
      `insert into chunk (id, document_id, position, text, kind, char_start, char_end, token_count, term_count,
         language) values ($1, $2, $3, $4, 'text', 0, length($4), 1, $5, $6)`,
      [chunk.id, documentId, position, texts[position], chunk.length, chunk.language],
    );
  }
  await writePostings(tx, documentId, chunks);
  await tx.query('update document set term_count = $2 where id = $1', [
    documentId,
    chunks.reduce((sum, chunk) => sum + chunk.length, 0),
  ]);
}

/** A document written as the ingest's transaction writes it (chunks, postings, then its status), without extraction. */
export async function insertDocument(
  tx: SqlExecutor,
  texts: readonly string[],
  status: 'indexed' | 'indexing' = 'indexed',
): Promise<string> {
  const id = crypto.randomUUID();
  const name = `doc-${id.slice(0, 8)}.txt`;
  await tx.query(
    `insert into document (id, path, filename, media_type, size_bytes, content_hash, status, title, chunk_count)
     values ($1, $2, $2, 'text/plain', 10, $3, 'indexing', $2, $4)`,
    [id, name, crypto.createHash('sha256').update(id).digest('hex'), texts.length],
  );
  await insertChunks(tx, id, texts);
  if (status === 'indexed') await tx.query(`update document set status = 'indexed' where id = $1`, [id]);
  return id;
}
