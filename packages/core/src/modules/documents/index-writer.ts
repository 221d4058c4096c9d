import crypto from 'node:crypto';
import type { SqlExecutor } from '@docqa/plugin-api';
import type { Chunk, LanguageDetector, TextLayout } from '../../index.js';
import { analyseChunk, languageDetector, writePostings } from '../search/contract.js';
import { writeRuleOutcomes, type RuleOutcome } from '../analytics/contract.js';

/** A chunk's id derives from its document and position, so indexing again overwrites, never duplicates. */
export function chunkId(documentId: string, position: number): string {
  const hex = crypto.createHash('sha256').update(`${documentId}:${position}`).digest('hex');
  // A name-based UUID (version 5 in the version nibble, RFC 4122 variant bits), from the hash.
  const variant = ((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  const clockSeq = `${variant}${hex.slice(18, 20)}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${clockSeq}-${hex.slice(20, 32)}`;
}

/**
 * Chunks per statement of the closing transaction: INDEX_UPSERT_BATCH_SIZE on a PostgreSQL server,
 * a few on the embedded database, which runs each statement on the server's own thread (about
 * 5 ms a chunk with its postings) while a local embedding model needs that thread to start its
 * next text; see the vector store's embeddedRowsPerStatement.
 */
export function chunksPerStatement(mode: 'embedded' | 'server', batchSize: number): number {
  return mode === 'embedded' ? Math.min(batchSize, embeddedChunksPerStatement) : batchSize;
}

const embeddedChunksPerStatement = 8;

/** What an ingest made of a document, ready to be stored. */
export interface ChunkedDocument {
  id: string;
  chunks: readonly Chunk[];
  /** Per chunk, by its index: the metadata values rules gave it (inherited ones included). */
  chunkMetadata: ReadonlyArray<Record<string, string> | undefined>;
  documentMetadata: Record<string, unknown>;
  /** The extractor's title, if it found one; else the stored title stays. */
  title: string | null;
  outcomes: readonly RuleOutcome[];
  /**
   * `documentText` of the extraction and the extractor's own metadata, kept for metadata refreshes
   * (document_text), with its section map and pages (`layout`, for GET /api/docs/{id}/content); null
   * when the text is over `defaultMaxTextCharacters`, then none is kept.
   */
  extraction: { text: string; metadata: Record<string, unknown>; layout?: TextLayout } | null;
  /** The rules skipped on it (`describeRuleFailures`), kept as the indexed document's `error`. */
  ruleFailures?: string | null;
}

/**
 * The ingest's last step, in the caller's transaction: the document's chunks replace any earlier
 * ones, with their BM25 postings, INDEX_UPSERT_BATCH_SIZE chunks at a time (so memory stays bounded
 * at any document size); then the rules' outcomes and the `indexed` state, whose change counts the
 * document's terms in term_stats (search/schema.ts). Until the transaction commits, searches see
 * the document as it was.
 */
export async function writeChunkedDocument(
  tx: SqlExecutor,
  document: ChunkedDocument,
  batchSize: number,
  detector: LanguageDetector = languageDetector(),
): Promise<void> {
  await tx.query('delete from chunk where document_id = $1', [document.id]);
  // BM25's length of the document: the sum of its chunks' lengths in analysed terms.
  let termCount = 0;
  // Languages first, over the whole document: a chunk too short to tell takes the document's.
  const languages = detector.detectChunks(document.chunks.map((chunk) => chunk.text));
  for (let start = 0; start < document.chunks.length; start += batchSize) {
    const part = document.chunks.slice(start, start + batchSize);
    const analysed = part.map((chunk, i) =>
      analyseChunk(chunkId(document.id, chunk.index), chunk.text, languages[start + i] ?? null),
    );
    const rows = part.map((chunk, i) => ({
      ...chunkRow(document.id, chunk),
      term_count: analysed[i]!.length,
      language: analysed[i]!.language,
      metadata: document.chunkMetadata[chunk.index] ?? {},
    }));
    await tx.query(
      `insert into chunk (id, document_id, position, text, heading_path, kind, page_start, page_end, row_start, row_end,
         char_start, char_end, token_count, term_count, language, metadata)
       select u.id, $1, u.position, u.text,
         coalesce((select array_agg(x) from jsonb_array_elements_text(u.heading_path) x), '{}'), u.kind,
         u.page_start, u.page_end, u.row_start, u.row_end, u.char_start, u.char_end, u.token_count, u.term_count,
         u.language, u.metadata
       from jsonb_to_recordset($2::jsonb) as u(id uuid, position int, text text, heading_path jsonb, kind text,
         page_start int, page_end int, row_start int, row_end int, char_start int, char_end int, token_count int,
         term_count int, language text, metadata jsonb)`,
      [document.id, JSON.stringify(rows)],
    );
    await writePostings(tx, document.id, analysed);
    termCount += analysed.reduce((sum, chunk) => sum + chunk.length, 0);
  }
  await writeRuleOutcomes(tx, document.id, document.outcomes);
  await writeDocumentText(tx, document.id, document.extraction);
  await tx.query(
    "update document set status = 'indexed', error = $6, chunk_count = $2, term_count = $5, title = " +
      'coalesce($3, title), metadata = $4::jsonb, indexed_at = now(), updated_at = now() where id = $1',
    [
      document.id,
      document.chunks.length,
      document.title,
      JSON.stringify(document.documentMetadata),
      termCount,
      document.ruleFailures ?? null,
    ],
  );
}

/** The text a metadata refresh applies the rules to; a re-index replaces it, a text too large leaves none. */
export async function writeDocumentText(
  tx: SqlExecutor,
  documentId: string,
  extraction: ChunkedDocument['extraction'],
): Promise<void> {
  if (!extraction) {
    await tx.query('delete from document_text where document_id = $1', [documentId]);
    return;
  }
  await tx.query(
    `insert into document_text (document_id, text, extracted_metadata, layout) values ($1, $2, $3::jsonb, $4::jsonb)
     on conflict (document_id) do update
     set text = excluded.text, extracted_metadata = excluded.extracted_metadata, layout = excluded.layout`,
    [
      documentId,
      extraction.text,
      JSON.stringify(extraction.metadata),
      extraction.layout ? JSON.stringify(extraction.layout) : null,
    ],
  );
}

function chunkRow(documentId: string, chunk: Chunk) {
  return {
    id: chunkId(documentId, chunk.index),
    position: chunk.index,
    text: chunk.text,
    heading_path: chunk.headingPath,
    kind: chunk.kind,
    page_start: chunk.pageStart ?? null,
    page_end: chunk.pageEnd ?? null,
    row_start: chunk.rowStart ?? null,
    row_end: chunk.rowEnd ?? null,
    char_start: chunk.start,
    char_end: chunk.end,
    token_count: Math.ceil(chunk.text.split(/\s+/).filter(Boolean).length * 1.3),
  };
}
