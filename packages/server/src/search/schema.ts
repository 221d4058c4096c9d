import type { SchemaMigration } from '@docqa/kernel';

/**
 * Lexical (BM25) postings. Besides the chunk a posting belongs to, it carries the chunk's document
 * and length, so scoring reads postings alone (an index-only scan of the primary key) and joins
 * only the small document table for status, visibility and filters — never the wide chunk rows.
 * Document frequencies are counted from postings of indexed documents at query time: always exact
 * after deletes and re-indexing, and no hot counter rows for concurrent ingest jobs to fight over.
 */
export const searchMigrations: SchemaMigration[] = [
  {
    name: '0006_lexical',
    up: [
      // BM25's document length of a chunk: its number of analysed terms.
      'alter table chunk add column term_count integer not null default 0',
      // The sum over the document's chunks, so N and avgdl come from the document table alone.
      'alter table document add column term_count bigint not null default 0',
      `create table chunk_term (
        term text not null,
        chunk_id uuid not null references chunk (id) on delete cascade,
        document_id uuid not null,
        tf integer not null,
        chunk_length integer not null,
        primary key (term, chunk_id) include (document_id, tf, chunk_length)
      )`,
      // Deleting chunks (a document deleted or indexed again) finds their postings through this.
      'create index chunk_term_chunk on chunk_term (chunk_id)',
    ],
    down: ['drop table chunk_term', 'alter table document drop column term_count', 'alter table chunk drop column term_count'],
  },
];
