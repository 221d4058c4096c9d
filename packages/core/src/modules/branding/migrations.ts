import type { ModuleMigration } from '@docqa/plugin-api';

/** Branding and its logo: one row each, in the database so every replica serves the same. */
export const brandingMigrations: ModuleMigration[] = [
  {
    name: '0013_branding',
    up: [
      `create table branding (
        singleton boolean primary key default true check (singleton),
        settings jsonb not null,
        updated_at timestamptz not null default now()
      )`,
      `create table branding_logo (
        singleton boolean primary key default true check (singleton),
        media_type text not null,
        bytes bytea not null,
        sha256 text not null,
        width integer not null,
        height integer not null,
        updated_at timestamptz not null default now()
      )`,
    ],
    down: ['drop table branding_logo', 'drop table branding'],
  },
];
