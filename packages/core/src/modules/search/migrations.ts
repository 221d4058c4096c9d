import type { ModuleMigration } from '@docqa/plugin-api';

/** The advisory lock every change of term_stats takes first (any fixed number; the audit chain uses another). */
const termStatsLockKey = 0x0d0c_7e25;

/**
 * Lexical (BM25) postings. Besides the chunk a posting belongs to, it carries the chunk's document
 * and length, so scoring reads postings alone (an index-only scan of the primary key) and joins
 * only the small document table for status, visibility and filters — never the wide chunk rows.
 * Document frequencies live in term_stats (see 0006_lexical_term_stats), kept by triggers.
 */
export const searchMigrations: ModuleMigration[] = [
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
    down: [
      'drop table chunk_term',
      'alter table document drop column term_count',
      'alter table chunk drop column term_count',
    ],
  },
  {
    name: '0006_lexical_term_stats',
    up: [
      // BM25's df of a term: its postings in chunks of indexed documents. Counting them at query
      // time read a frequent term's postings twice per search (df, then scoring) and joined each
      // to its document; kept here, a search reads one row per term instead.
      'create table term_stats (term text primary key, df integer not null)',
      `insert into term_stats (term, df)
       select t.term, count(*) from chunk_term t join document d on d.id = t.document_id and d.status = 'indexed' group by t.term`,
      // Every change goes through here: one advisory lock (the same key everywhere) then the
      // terms in order, so concurrent ingests and deletes wait for each other instead of
      // deadlocking on the rows of common terms. Terms whose df falls to 0 are removed. (No check
      // on df ≥ 0: PostgreSQL checks the row an upsert proposes, a negative delta, before merging it.)
      `create function term_stats_add(deltas jsonb) returns void language plpgsql as $$
       begin
         if deltas is null or deltas = '{}'::jsonb then return; end if;
         perform pg_advisory_xact_lock(${termStatsLockKey});
         insert into term_stats (term, df)
           select d.key, d.value::integer from jsonb_each_text(deltas) d order by d.key
           on conflict (term) do update set df = term_stats.df + excluded.df;
         delete from term_stats s where s.df = 0 and s.term in (select jsonb_object_keys(deltas));
       end $$`,
      // A document that becomes indexed adds its postings; one that stops being indexed (indexed
      // again, failed, pending after a sync) takes them away.
      `create function term_stats_document_status() returns trigger language plpgsql as $$
       begin
         perform term_stats_add((select jsonb_object_agg(p.term, case when new.status = 'indexed' then p.n else -p.n end) from (
           select t.term, count(*) as n from chunk c join chunk_term t on t.chunk_id = c.id where c.document_id = new.id group by t.term) p));
         return null;
       end $$`,
      `create trigger document_term_stats_status after update of status on document for each row
       when ((old.status = 'indexed') is distinct from (new.status = 'indexed')) execute function term_stats_document_status()`,
      // A deleted document's chunks go first, while it is still there and indexed, so their
      // postings are taken away once, by the trigger below (the cascade would find none left).
      `create function document_delete_chunks() returns trigger language plpgsql as $$
       begin
         delete from chunk where document_id = old.id;
         return old;
       end $$`,
      'create trigger document_delete_chunks before delete on document for each row execute function document_delete_chunks()',
      // Postings written or removed while their document is indexed (a bulk load, chunks deleted
      // directly) count at once. The ingest writes them while the document is 'indexing', so they
      // count when its status turns.
      `create function term_stats_postings() returns trigger language plpgsql as $$
       declare
         direction integer := case when tg_op = 'INSERT' then 1 else -1 end;
       begin
         -- Most statements (an ingest's) touch one document, not indexed yet: check that first.
         if not exists (select 1 from document d where d.status = 'indexed' and d.id in (select distinct c.document_id from changed_postings c)) then
           return null;
         end if;
         perform term_stats_add((select jsonb_object_agg(p.term, direction * p.n) from (
           select c.term, count(*) as n from changed_postings c join document d on d.id = c.document_id and d.status = 'indexed' group by c.term) p));
         return null;
       end $$`,
      `create trigger chunk_term_stats_insert after insert on chunk_term referencing new table as changed_postings
       for each statement execute function term_stats_postings()`,
      `create trigger chunk_term_stats_delete after delete on chunk_term referencing old table as changed_postings
       for each statement execute function term_stats_postings()`,
    ],
    down: [
      'drop trigger chunk_term_stats_delete on chunk_term',
      'drop trigger chunk_term_stats_insert on chunk_term',
      'drop function term_stats_postings()',
      'drop trigger document_delete_chunks on document',
      'drop function document_delete_chunks()',
      'drop trigger document_term_stats_status on document',
      'drop function term_stats_document_status()',
      'drop function term_stats_add(jsonb)',
      'drop table term_stats',
    ],
  },
  {
    name: '0015_postings_deleted_with_their_chunks',
    up: [
      // The foreign key to chunk checked every posting as a row of its own: 40 % of the time an
      // ingest spent writing postings (measured: 4.9 s against 3.0 s for 555,687 postings). Its
      // one use, deleting a chunk's postings with it, is a statement trigger instead: one
      // join per statement on chunk_term_chunk. Postings are written only in the transaction that
      // writes their chunks (documents/index-writer.ts), so none can name a chunk that is not there.
      'alter table chunk_term drop constraint chunk_term_chunk_id_fkey',
      `create function chunk_delete_postings() returns trigger language plpgsql as $$
       begin
         delete from chunk_term t using removed_chunks r where t.chunk_id = r.id;
         return null;
       end $$`,
      `create trigger chunk_delete_postings after delete on chunk referencing old table as removed_chunks
       for each statement execute function chunk_delete_postings()`,
    ],
    down: [
      'drop trigger chunk_delete_postings on chunk',
      'drop function chunk_delete_postings()',
      'delete from chunk_term t where not exists (select 1 from chunk c where c.id = t.chunk_id)',
      'alter table chunk_term add constraint chunk_term_chunk_id_fkey foreign key (chunk_id) references chunk (id) on delete cascade',
    ],
  },
  {
    name: '0018_chunk_language',
    up: [
      // The language a chunk was analysed in (ISO 639-1; null: not told), so a query whose language
      // is not told is analysed under each language the corpus holds (lexical-index.ts).
      // Chunks indexed before were analysed as English: they say so until the re-index job tells
      // their language, so queries keep matching them meanwhile. A constant default fills existing
      // rows without rewriting the table; dropped at once, so new chunks state their own.
      `alter table chunk add column language text null default 'en'`,
      'alter table chunk alter column language drop default',
      'create index chunk_language on chunk (language)',
      // The analysis the postings were written with; a process that starts with another re-indexes
      // them (lexical-reindex.ts). Postings from before this migration are of version 1 (English).
      'create table lexical_analyzer (id boolean primary key default true check (id), version integer not null)',
      'insert into lexical_analyzer (version) values (1)',
    ],
    down: ['drop table lexical_analyzer', 'drop index chunk_language', 'alter table chunk drop column language'],
  },
  {
    name: '0023_lexical_corpus_totals',
    up: [
      // BM25's N and avgdl: chunks and terms of indexed documents. Summed over the document table at
      // every search they cost a sequential scan (5.3 of 6 ms at 1,000 documents, growing with the
      // corpus); kept here by a trigger, a search reads one row.
      'create table lexical_corpus (id boolean primary key default true check (id), chunks bigint not null, terms bigint not null)',
      `insert into lexical_corpus (chunks, terms)
       select coalesce(sum(chunk_count), 0), coalesce(sum(term_count), 0) from document where status = 'indexed'`,
      // A document counts while it is indexed, with the chunk and term counts it has then. The
      // advisory lock of term_stats comes first (the same order as every change of term_stats),
      // then the one row: concurrent ingests and deletes queue on it instead of deadlocking.
      `create function lexical_corpus_document() returns trigger language plpgsql as $$
       declare
         delta_chunks bigint := 0;
         delta_terms bigint := 0;
       begin
         if tg_op in ('UPDATE', 'DELETE') and old.status = 'indexed' then
           delta_chunks := delta_chunks - old.chunk_count;
           delta_terms := delta_terms - old.term_count;
         end if;
         if tg_op in ('UPDATE', 'INSERT') and new.status = 'indexed' then
           delta_chunks := delta_chunks + new.chunk_count;
           delta_terms := delta_terms + new.term_count;
         end if;
         if delta_chunks <> 0 or delta_terms <> 0 then
           perform pg_advisory_xact_lock(${termStatsLockKey});
           update lexical_corpus set chunks = chunks + delta_chunks, terms = terms + delta_terms;
         end if;
         return null;
       end $$`,
      `create trigger document_lexical_corpus after insert or delete or update of status, chunk_count, term_count
       on document for each row execute function lexical_corpus_document()`,
    ],
    down: [
      'drop trigger document_lexical_corpus on document',
      'drop function lexical_corpus_document()',
      'drop table lexical_corpus',
    ],
  },
  {
    name: '0024_lexical_term_windows',
    up: [
      // A number per chunk, in the order chunks were written (writePostings numbers them), so a
      // frequent term's postings can be kept as bitmaps over chunk numbers (term-windows.ts). A
      // chunk analysed again gets a new number: its old one, left in the windows, maps to nothing.
      `create table lexical_chunk_number (
        chunk_id uuid primary key references chunk (id) on delete cascade,
        number bigint generated always as identity
      )`,
      'insert into lexical_chunk_number (chunk_id) select id from chunk order by document_id, position',
      'create unique index lexical_chunk_number_number on lexical_chunk_number (number) include (chunk_id)',
      // Frequent terms' postings of chunks numbered up to the build's watermark, one row per term and
      // window of 65,536 numbers; built off the ingest path (term-window-build.ts). Stored
      // uncompressed: bitmaps of frequent terms hardly compress, and reads skip decompressing.
      `create table term_window (
        term text not null,
        window_no integer not null,
        postings integer not null,
        payload bytea not null,
        primary key (term, window_no)
      )`,
      'alter table term_window alter column payload set storage external',
      // The build the windows are of: chunks numbered above the watermark are read from chunk_term.
      `create table term_window_build (
        id boolean primary key default true check (id),
        watermark bigint not null,
        analyzer_version integer not null,
        built_at timestamptz not null
      )`,
    ],
    down: ['drop table term_window_build', 'drop table term_window', 'drop table lexical_chunk_number'],
  },
  {
    name: '0025_lexical_chunk_number_lookups',
    up: [
      // The lookups search makes per posting and per candidate read an index alone, not the heap
      // (bench:retrieval at a million chunks, docs/operations.md): a rare term's posting finds its
      // number in the primary key, and a candidate's number its chunk and document in the other
      // index, without a random read of the wide chunk row for the document id. A chunk's document
      // never changes: a document analysed again, or deleted, deletes or renumbers its chunks.
      'alter table lexical_chunk_number add column document_id uuid',
      'update lexical_chunk_number n set document_id = c.document_id from chunk c where c.id = n.chunk_id',
      'alter table lexical_chunk_number alter column document_id set not null',
      'alter table lexical_chunk_number drop constraint lexical_chunk_number_pkey',
      `alter table lexical_chunk_number add constraint lexical_chunk_number_pkey
         primary key (chunk_id) include (number)`,
      'drop index lexical_chunk_number_number',
      `create unique index lexical_chunk_number_number on lexical_chunk_number (number)
         include (chunk_id, document_id)`,
    ],
    down: [
      'drop index lexical_chunk_number_number',
      'create unique index lexical_chunk_number_number on lexical_chunk_number (number) include (chunk_id)',
      'alter table lexical_chunk_number drop constraint lexical_chunk_number_pkey',
      'alter table lexical_chunk_number add constraint lexical_chunk_number_pkey primary key (chunk_id)',
      'alter table lexical_chunk_number drop column document_id',
    ],
  },
];
