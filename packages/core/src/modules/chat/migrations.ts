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
  {
    // A user's thumbs up or down on one answer, kept with the turn so it goes when the turn does
    // (trimmed to RAG_CONVERSATION_MAX_TURNS, purged with its conversation).
    name: '0022_turn_feedback',
    up: [
      `alter table conversation_turn
        add column feedback_rating text null check (feedback_rating in ('up', 'down')),
        add column feedback_comment text null,
        add column feedback_at timestamptz null`,
      // The analytics read rated turns by time: counts per period and the latest down-rated ones.
      `create index conversation_turn_feedback on conversation_turn (feedback_at desc)
        where feedback_rating is not null`,
    ],
    down: [
      'drop index conversation_turn_feedback',
      `alter table conversation_turn drop column feedback_rating, drop column feedback_comment,
        drop column feedback_at`,
    ],
  },
];
