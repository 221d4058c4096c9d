import type { ModuleMigration } from '@docqa/plugin-api';

/** Cron schedules of source syncs (spec 2.5); pg-boss fires them, once per tick across replicas. */
export const scheduleMigrations: ModuleMigration[] = [
  {
    name: '0009_schedules',
    up: [
      `create table sync_schedule (
        id uuid primary key,
        source_id uuid not null references source (id) on delete cascade,
        cron text not null,
        enabled boolean not null default true,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`,
    ],
    down: ['drop table sync_schedule'],
  },
];
