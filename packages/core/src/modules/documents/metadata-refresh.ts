import {
  applyRules,
  describeRuleFailures,
  documentLayout,
  documentText,
  type MetadataRule,
  type TextLayout,
} from '../../index.js';
import {
  defaultMaxTextCharacters,
  type Db,
  type ExtractedDocument,
  type JobContext,
  type Logger,
} from '@docqa/plugin-api';
import type { MetadataRefreshData, RulesService } from '../rules/contract.js';
import { ruleOutcomes, writeRuleOutcomes } from '../analytics/contract.js';
import { writeDocumentText } from './index-writer.js';

interface StoredChunk {
  id: string;
  text: string;
  char_start: number;
  char_end: number;
}

export interface RefreshedDocument {
  id: string;
  filename: string;
  media_type: string;
  content_hash: string;
  metadata: Record<string, unknown>;
}

/** Extraction from the stored bytes, as the ingest does it (IngestPipeline.extract). */
export type ExtractDocument = (document: RefreshedDocument, signal: AbortSignal) => Promise<ExtractedDocument>;

interface Extraction {
  text: string;
  metadata: Record<string, unknown>;
  /** Set when the text is extracted again: kept with it for GET /api/docs/{id}/content. */
  layout?: TextLayout;
}

export interface RefreshOutcome {
  documents: number;
  /** Documents indexed before their text was kept (0019_document_text), extracted again from their bytes. */
  re_extracted: number;
  /** Documents refreshed from their chunks joined together, whose values may differ from an indexing's. */
  from_chunks: number;
}

/**
 * Re-applies a source's rules to its indexed documents without chunking again: the rules see each
 * document's full extracted text kept at indexing (document_text) with the stored chunks' spans in
 * it, which is exactly what the ingest gave them, so a refresh gives what an indexing gives.
 * New chunk_boundary rules change chunking only at the next indexing (a rebuild).
 */
export async function refreshMetadata(
  { db, logger: parentLogger }: { db: Db; logger: Logger },
  rules: RulesService,
  job: JobContext<MetadataRefreshData>,
  extract: ExtractDocument,
): Promise<RefreshOutcome> {
  const logger = parentLogger.child({ component: 'metadata-refresh' });
  const ruleList = await rules.rulesOf(job.data.sourceId);
  const { rows: documents } = await db.query<RefreshedDocument>(
    `select id, filename, media_type, content_hash, metadata from document
     where source_id = $1 and status = 'indexed' order by created_at`,
    [job.data.sourceId],
  );
  const outcome: RefreshOutcome = { documents: documents.length, re_extracted: 0, from_chunks: 0 };
  await job.progress(0, documents.length);
  for (const [i, document] of documents.entries()) {
    job.signal.throwIfAborted();
    const { rows: chunks } = await db.query<StoredChunk>(
      'select id, text, char_start, char_end from chunk where document_id = $1 order by position',
      [document.id],
    );
    let extraction = await storedExtraction(db, document.id);
    let keep = false;
    if (!extraction) {
      extraction = await extractAgain(document, chunks, extract, job.signal, logger);
      keep = extraction !== null;
      if (keep) outcome.re_extracted++;
      else outcome.from_chunks++;
    }
    await refreshDocument(db, ruleList, rules, document, chunks, extraction, keep);
    await job.progress(i + 1, documents.length);
  }
  return outcome;
}

async function storedExtraction(db: Db, documentId: string): Promise<Extraction | null> {
  const { rows } = await db.query<{ text: string; extracted_metadata: Record<string, unknown> }>(
    'select text, extracted_metadata from document_text where document_id = $1',
    [documentId],
  );
  return rows[0] ? { text: rows[0].text, metadata: rows[0].extracted_metadata } : null;
}

/**
 * A document indexed before its text was kept: its bytes are extracted again, and the text is used
 * (and kept) only if every stored chunk is exactly its slice of it, so the spans stay true. An
 * extractor that changed since, bytes that are gone or a text over the limit give null.
 */
async function extractAgain(
  document: RefreshedDocument,
  chunks: StoredChunk[],
  extract: ExtractDocument,
  signal: AbortSignal,
  logger: Logger,
): Promise<Extraction | null> {
  let reason: string;
  try {
    const extracted = await extract(document, signal);
    const text = documentText(extracted);
    if (text.length > defaultMaxTextCharacters) reason = 'its text is over the size kept for refreshes';
    else if (chunks.every((chunk) => text.slice(chunk.char_start, chunk.char_end) === chunk.text))
      return { text, metadata: extracted.metadata, layout: documentLayout(extracted) };
    else reason = 'its extraction no longer lines up with its chunks';
  } catch (error) {
    if (signal.aborted) throw error;
    reason = `extracting it failed: ${(error as Error).message}`;
  }
  logger.warn(
    { document_id: document.id },
    `metadata refresh used the chunks of ${document.filename} (${reason}); re-index it to refresh exactly`,
  );
  return null;
}

async function refreshDocument(
  db: Db,
  ruleList: MetadataRule[],
  rules: RulesService,
  document: RefreshedDocument,
  chunks: StoredChunk[],
  extraction: Extraction | null,
  keep: boolean,
): Promise<void> {
  const target = extraction
    ? {
        text: extraction.text,
        chunks: chunks.map((chunk) => ({ start: chunk.char_start, end: chunk.char_end, text: chunk.text })),
      }
    : joinedChunks(chunks);
  const applied = await applyRules(ruleList, { filename: document.filename, ...target }, { runner: rules.runner });
  // As the ingest composes them; without the extraction, the values of fields no rule produces
  // any more are dropped and the rest (the extractor's own metadata) stays.
  const ruleFields = new Set(ruleList.map((rule) => rule.field_name));
  const base = extraction
    ? extraction.metadata
    : Object.fromEntries(Object.entries(document.metadata).filter(([key]) => !ruleFields.has(key)));
  await db.transaction(async (tx) => {
    for (const [i, chunk] of chunks.entries()) {
      await tx.query('update chunk set metadata = $2::jsonb where id = $1', [
        chunk.id,
        JSON.stringify({ ...applied.document, ...(applied.chunks[i]?.values ?? {}) }),
      ]);
    }
    // A rule skipped now is said on the document; one that ran now clears what an earlier run said.
    await tx.query('update document set metadata = $2::jsonb, error = $3, updated_at = now() where id = $1', [
      document.id,
      JSON.stringify({ ...base, ...applied.document }),
      describeRuleFailures(ruleList, applied.failures),
    ]);
    if (keep) await writeDocumentText(tx, document.id, extraction);
    // What each rule did this time, for the analytics (spec 4.7), committed with the values it explains.
    await writeRuleOutcomes(tx, document.id, ruleOutcomes(ruleList, applied, chunks.length));
  });
}

/** The fallback: the chunks joined as the pipeline joins blocks, spans and header scope close to the original. */
function joinedChunks(chunks: StoredChunk[]) {
  let offset = 0;
  const spans = chunks.map((chunk) => {
    const span = { start: offset, end: offset + chunk.text.length, text: chunk.text };
    offset = span.end + 2;
    return span;
  });
  return { text: chunks.map((chunk) => chunk.text).join('\n\n'), chunks: spans };
}
