import type { ModuleMigration } from '@docqa/plugin-api';

/**
 * Conversations and their turns. A turn keeps what its answer was built from (sources, retrieval
 * settings, budget, timing) so a conversation can be shown later exactly as it was answered.
 */
export const conversationMigrations: ModuleMigration[] = [
  {
    name: '0010_conversations',
    up: [
      `create table conversation (
        id uuid primary key,
        user_id uuid not null references app_user (id) on delete cascade,
        title text not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`,
      'create index conversation_user_recent on conversation (user_id, updated_at desc)',
      // The retention sweep deletes by last activity.
      'create index conversation_updated on conversation (updated_at)',
      `create table conversation_turn (
        id uuid primary key,
        conversation_id uuid not null references conversation (id) on delete cascade,
        position integer not null,
        query text not null,
        rewritten_query text null,
        answer text not null,
        sources jsonb not null,
        retrieval_settings jsonb not null,
        token_budget jsonb null,
        timing jsonb not null,
        created_at timestamptz not null default now(),
        unique (conversation_id, position)
      )`,
    ],
    down: ['drop table conversation_turn', 'drop table conversation'],
  },
];
