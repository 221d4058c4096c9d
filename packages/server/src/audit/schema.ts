import type { SchemaMigration } from '@docqa/kernel';

/**
 * The audit log (spec 4.10, 6.2). Append-only is enforced by the database: a trigger refuses every
 * UPDATE, DELETE and TRUNCATE, except deletes made inside audit_purge(), the retention sweep's one
 * path, which first records the last purged row's hash in audit_anchor so the chain can still be
 * verified from there. Each row carries the hash of the previous one, so a row changed or removed
 * behind the trigger's back (a superuser disabling it) breaks the chain where it happened.
 */
export const auditMigrations: SchemaMigration[] = [
  {
    name: '0012_audit_log',
    up: [
      `create table audit_event (
        seq bigint generated always as identity primary key,
        id uuid not null unique,
        occurred_at timestamptz not null,
        type text not null,
        actor_id uuid null,
        actor_username text null,
        ip text null,
        target text null,
        outcome text not null check (outcome in ('success', 'failure')),
        details jsonb not null,
        prev_hash text not null,
        hash text not null
      )`,
      'create index audit_event_time on audit_event (occurred_at desc)',
      'create index audit_event_type_time on audit_event (type, occurred_at desc)',
      'create index audit_event_actor_time on audit_event (actor_id, occurred_at desc)',
      `create table audit_anchor (
        singleton boolean primary key default true check (singleton),
        last_purged_seq bigint not null,
        last_purged_hash text not null,
        purged_at timestamptz not null default now()
      )`,
      `create function audit_refuse_change() returns trigger language plpgsql as $$
       begin
         if tg_op = 'DELETE' and current_setting('docqa.audit_purge', true) = 'on' then
           return old;
         end if;
         raise exception 'audit_event is append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
       end
       $$`,
      'create trigger audit_event_append_only before update or delete on audit_event for each row execute function audit_refuse_change()',
      'create trigger audit_event_no_truncate before truncate on audit_event for each statement execute function audit_refuse_change()',
      `create function audit_purge(cutoff timestamptz) returns bigint language plpgsql as $$
       declare
         last_row audit_event%rowtype;
         removed bigint;
       begin
         select * into last_row from audit_event where occurred_at < cutoff order by seq desc limit 1;
         if not found then
           return 0;
         end if;
         insert into audit_anchor (singleton, last_purged_seq, last_purged_hash) values (true, last_row.seq, last_row.hash)
           on conflict (singleton) do update set last_purged_seq = excluded.last_purged_seq, last_purged_hash = excluded.last_purged_hash, purged_at = now();
         perform set_config('docqa.audit_purge', 'on', true);
         delete from audit_event where seq <= last_row.seq;
         get diagnostics removed = row_count;
         perform set_config('docqa.audit_purge', 'off', true);
         return removed;
       end
       $$`,
    ],
    down: ['drop function audit_purge(timestamptz)', 'drop table audit_anchor', 'drop trigger audit_event_no_truncate on audit_event', 'drop trigger audit_event_append_only on audit_event', 'drop table audit_event', 'drop function audit_refuse_change()'],
  },
];
