import type { ModuleMigration } from '@docqa/plugin-api';

/** Personal API keys (docs/api-access.md). */
export const apiKeyMigrations: ModuleMigration[] = [
  {
    name: '0017_api_keys',
    up: [
      // Only the SHA-256 of the secret is kept: a database leak hands out no working key. A key goes
      // with its user (on delete cascade), and a revoked one stays, for the record, until then.
      `create table api_key (
        id uuid primary key,
        user_id uuid not null references app_user (id) on delete cascade,
        name text not null,
        prefix text not null,
        key_hash text not null unique,
        scopes text[] not null check (scopes <@ array['read', 'write', 'admin']::text[] and cardinality(scopes) > 0),
        created_at timestamptz not null default now(),
        expires_at timestamptz null,
        last_used_at timestamptz null,
        revoked_at timestamptz null
      )`,
      'create index api_key_user on api_key (user_id)',
    ],
    down: ['drop table api_key'],
  },
];
