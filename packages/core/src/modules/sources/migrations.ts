import type { ModuleMigration } from '@docqa/plugin-api';

/** Connectors and integrations (sources), and documents that belong to them. */
// 0007 also gave the documents' table (0004) the columns a source's documents are told apart by; it
// stays one migration, as written, and its number puts it after the table it alters.
export const sourceMigrations: ModuleMigration[] = [
  {
    name: '0007_sources',
    up: [
      `create table source (
        id uuid primary key,
        kind text not null check (kind in ('connector', 'integration')),
        type text not null,
        name text not null,
        config jsonb not null,
        secrets text null,
        enabled boolean not null default true,
        cursor text null,
        last_sync_at timestamptz null,
        last_sync_status text null,
        last_error text null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`,
      'create unique index source_name_key on source (kind, lower(name))',
      'alter table document add column external_id text null',
      // Deduplication by content is for uploads; inside a source two paths may hold the same bytes.
      'drop index document_source_content',
      `create unique index document_upload_content on document (content_hash) where source_type = 'upload'`,
      'create unique index document_source_external on document (source_type, ' +
        'source_id, external_id) where external_id is not null',
    ],
    down: [
      'drop index document_source_external',
      'drop index document_upload_content',
      'alter table document drop column external_id',
      'drop table source',
    ],
  },
];
