import type { ModuleMigration } from '@docqa/plugin-api';

/** Documents as stored: one row per document, its bytes in the content-addressed blob store. */
export const documentMigrations: ModuleMigration[] = [
  {
    name: '0004_documents',
    up: [
      `create table document (
        id uuid primary key,
        source_type text not null default 'upload' check (source_type in ('upload', 'connector', 'integration')),
        source_id text null,
        path text not null,
        filename text not null,
        media_type text not null,
        size_bytes bigint not null,
        content_hash text not null,
        status text not null check (status in ('pending', 'indexing', 'indexed', 'failed')),
        error text null,
        job_id uuid null,
        title text null,
        metadata jsonb not null default '{}',
        chunk_count integer not null default 0,
        uploaded_by uuid null references app_user (id) on delete set null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        indexed_at timestamptz null
      )`,
      // The same bytes in the same source are one document: re-uploading them does not index twice.
      `create unique index document_source_content on document (source_type, coalesce(source_id, ''), content_hash)`,
      'create index document_source_path on document (source_type, source_id, path)',
      'create index document_created on document (created_at desc)',
    ],
    down: ['drop table document'],
  },
  {
    name: '0005_chunks',
    up: [
      // The text units retrieval works on; vectors live in the vector store under the same ids.
      `create table chunk (
        id uuid primary key,
        document_id uuid not null references document (id) on delete cascade,
        position integer not null,
        text text not null,
        heading_path text[] not null default '{}',
        kind text not null check (kind in ('text', 'table')),
        page_start integer null,
        page_end integer null,
        char_start integer not null,
        char_end integer not null,
        token_count integer not null,
        metadata jsonb not null default '{}',
        unique (document_id, position)
      )`,
    ],
    down: ['drop table chunk'],
  },
  {
    name: '0019_document_text',
    up: [
      // The whole extracted text of a document and its extractor's metadata, as the last indexing
      // had them: a metadata refresh applies the rules to exactly this (rules/refresh.ts), since the
      // chunks joined together are not the text (a split drops the space between its two sides).
      // Empty for documents indexed before this migration; refresh re-extracts those (docs).
      `create table document_text (
        document_id uuid primary key references document (id) on delete cascade,
        text text not null,
        extracted_metadata jsonb not null default '{}'
      )`,
    ],
    down: ['drop table document_text'],
  },
  {
    name: '0020_vector_deletion',
    up: [
      // Documents whose vectors are still to be deleted. The vector store may live on another
      // server (VECTORDB_URL), so a document's row and its vectors cannot go in one transaction:
      // the deletion's own statement queues the id here (trigger), the vectors go after it, then the
      // id; a crash or a store that is down in between leaves the id for the next sweep
      // (documents/vector-deletions.ts), and deleting vectors twice is harmless.
      `create table vector_deletion (
        document_id uuid primary key,
        deleted_at timestamptz not null default now()
      )`,
      `create function document_queue_vector_deletion() returns trigger language plpgsql as $$
       begin
         insert into vector_deletion (document_id) select id from removed_documents on conflict do nothing;
         return null;
       end $$`,
      `create trigger document_queue_vector_deletion after delete on document referencing old table as removed_documents
       for each statement execute function document_queue_vector_deletion()`,
    ],
    down: [
      'drop trigger document_queue_vector_deletion on document',
      'drop function document_queue_vector_deletion()',
      'drop table vector_deletion',
    ],
  },
  {
    name: '0021_chunk_rows_and_text_layout',
    up: [
      // Where a chunk is in a spreadsheet: the 1-based sheet rows (xlsx) or records (CSV) it covers,
      // null for other formats and for chunks indexed before this migration (re-index to fill).
      'alter table chunk add column row_start integer null, add column row_end integer null',
      // The section map and pages of the extracted text (GET /api/docs/{id}/content), computed from
      // the extraction's blocks when it is indexed: exact where the chunks only approximate it (a
      // chunk may start mid-section or span a page break). Null for texts kept before it.
      'alter table document_text add column layout jsonb null',
    ],
    down: [
      'alter table document_text drop column layout',
      'alter table chunk drop column row_start, drop column row_end',
    ],
  },
];
