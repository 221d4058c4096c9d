import { analyzerVersion, type LanguageDetector } from '../../index.js';
import type { Db, JobContext, JobsService, SqlExecutor } from '@docqa/plugin-api';
import { analyseChunk, writePostings } from './lexical-index.js';

/**
 * Re-analysing the lexical postings after a change of analysis (analyzerVersion). The index
 * rebuild (documents/index-service.ts) would extract, chunk and embed every document again; an
 * analysis change needs none of that: each document's stored chunk text is analysed again and its
 * postings, chunk lengths and languages replaced, one document per transaction. Search keeps
 * answering throughout, from old postings for the documents not yet done.
 */
export const lexicalReindexQueue = 'lexical_reindex';

export interface LexicalReindexData {
  /** The analysis the job brings the postings to. */
  version: number;
}

/** The analysis the stored postings were written with (lexical_analyzer, migrations.ts). */
export async function storedAnalyzerVersion(db: Db): Promise<number> {
  const { rows } = await db.query<{ version: number }>('select version from lexical_analyzer');
  return Number(rows[0]?.version ?? 0);
}

/**
 * Queues the re-index when the postings are of another analysis than this process's; one job at a
 * time whichever process asks (a singleton key), so replicas starting together queue it once.
 * Answers the job's id, or null when the postings are current.
 */
export async function queueLexicalReindexIfStale(db: Db, jobs: JobsService): Promise<string | null> {
  if ((await storedAnalyzerVersion(db)) === analyzerVersion) return null;
  // No chunk yet (a new installation, whose migrations record the first analysis): nothing to
  // re-analyse, and every posting written from now on is of this analysis. A job would only leave
  // traces, which made a database on which DocQA merely started look used to `docqa import`.
  const { rows } = await db.query<{ found: boolean }>('select exists (select 1 from chunk) as found');
  if (!rows[0]?.found) {
    await db.query('update lexical_analyzer set version = $1', [analyzerVersion]);
    return null;
  }
  const data: LexicalReindexData = { version: analyzerVersion };
  return jobs.send(lexicalReindexQueue, data, { singletonKey: `lexical_reindex_${analyzerVersion}` });
}

/**
 * The job: every document with chunks, in id order, progress after each; cancelling stops between
 * documents. The version is recorded last, so a job cut short is queued again at the next start and
 * redoes the documents (re-analysing a done one changes nothing).
 */
export async function reindexLexical(
  db: Db,
  detector: LanguageDetector,
  job: JobContext<LexicalReindexData>,
): Promise<{ documents: number; chunks: number }> {
  if (job.data.version !== analyzerVersion) return { documents: 0, chunks: 0 };
  const { rows: documents } = await db.query<{ id: string }>(
    `select id from document where chunk_count > 0 order by id`,
  );
  await job.progress(0, documents.length);
  let chunks = 0;
  for (const [i, { id }] of documents.entries()) {
    job.signal.throwIfAborted();
    chunks += await db.transaction((tx) => reanalyseDocument(tx, id, detector));
    await job.progress(i + 1, documents.length);
  }
  await db.query('update lexical_analyzer set version = $1', [analyzerVersion]);
  return { documents: documents.length, chunks };
}

/**
 * One document's chunks analysed again. The chunk rows are locked first, so an ingest of the same
 * document waits (or, if it went first, these are its new chunks); postings are replaced by chunk
 * id, never by document, so none that another transaction wrote is touched. term_stats follows
 * through its triggers (search/schema.ts).
 */
async function reanalyseDocument(tx: SqlExecutor, documentId: string, detector: LanguageDetector): Promise<number> {
  const { rows } = await tx.query<{ id: string; text: string }>(
    'select id, text from chunk where document_id = $1 order by position for update',
    [documentId],
  );
  if (rows.length === 0) return 0;
  const languages = detector.detectChunks(rows.map((row) => row.text));
  const analysed = rows.map((row, i) => analyseChunk(row.id, row.text, languages[i] ?? null));
  await tx.query('delete from chunk_term where chunk_id = any($1::uuid[])', [analysed.map((chunk) => chunk.id)]);
  // New numbers: the term windows hold the old postings under the old ones (term-window-build.ts).
  await tx.query('delete from lexical_chunk_number where chunk_id = any($1::uuid[])', [
    analysed.map((chunk) => chunk.id),
  ]);
  await writePostings(tx, documentId, analysed);
  await tx.query(
    `update chunk c set term_count = u.term_count, language = u.language
     from unnest($1::uuid[], $2::int[], $3::text[]) as u(id, term_count, language) where c.id = u.id`,
    [analysed.map((chunk) => chunk.id), analysed.map((chunk) => chunk.length), analysed.map((chunk) => chunk.language)],
  );
  await tx.query(
    'update document set term_count = (select coalesce(sum(term_count), 0) from chunk where document_id = $1) where id = $1',
    [documentId],
  );
  return rows.length;
}
