import type { ModuleMigration } from '@docqa/plugin-api';
import { everyoneGroupId } from './contract.js';

/** Groups, membership and per-resource access (ENTERPRISE; on other plans only `everyone` shows). */
export const groupMigrations: ModuleMigration[] = [
  {
    name: '0003_groups',
    up: [
      `create table user_group (
        id uuid primary key,
        name text not null,
        description text not null default '',
        builtin boolean not null default false,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`,
      'create unique index user_group_name_key on user_group (lower(name))',
      `insert into user_group (id, name, description, builtin) values ('${everyoneGroupId}', 'everyone', 'Every signed-in user.', true)`,
      // Membership of `everyone` is implicit and never stored.
      `create table user_group_member (
        group_id uuid not null references user_group (id) on delete cascade,
        user_id uuid not null references app_user (id) on delete cascade,
        created_at timestamptz not null default now(),
        primary key (group_id, user_id)
      )`,
      'create index user_group_member_user on user_group_member (user_id)',
      // A resource without rows here is open to every signed-in user; with rows, to those groups only.
      `create table resource_access (
        resource_type text not null check (resource_type in ('connector', 'integration', 'document')),
        resource_id text not null,
        group_id uuid not null references user_group (id) on delete cascade,
        primary key (resource_type, resource_id, group_id)
      )`,
      'create index resource_access_group on resource_access (group_id)',
    ],
    down: ['drop table resource_access', 'drop table user_group_member', 'drop table user_group'],
  },
];
