import type { ModuleMigration } from '@docqa/plugin-api';

/** Metadata extraction rules, per connector or integration (spec 2.4). */
export const ruleMigrations: ModuleMigration[] = [
  {
    name: '0008_metadata_rules',
    up: [
      `create table metadata_rule (
        id uuid primary key,
        source_id uuid not null references source (id) on delete cascade,
        field_name text not null,
        pattern text not null,
        query_pattern text null,
        scope text not null check (scope in ('full', 'header', 'filename')),
        level text not null check (level in ('document', 'chunk')),
        chunk_boundary boolean not null default false,
        priority integer not null default 0,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`,
      'create index metadata_rule_source on metadata_rule (source_id)',
    ],
    down: ['drop table metadata_rule'],
  },
];
