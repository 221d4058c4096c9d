import type { ModuleMigration } from '@docqa/plugin-api';

/**
 * The audit log (spec 4.10, 6.2). Append-only is enforced by the database: a trigger refuses every
 * UPDATE, DELETE and TRUNCATE, except deletes made inside audit_purge(), the retention sweep's one
 * path, which first records the last purged row's hash in audit_anchor so the chain can still be
 * verified from there. Each row carries the hash of the previous one, so a row changed or removed
 * behind the trigger's back (a superuser disabling it) breaks the chain where it happened.
 */
export const auditMigrations: ModuleMigration[] = [
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
      'create trigger audit_event_append_only before update or delete on ' +
        'audit_event for each row execute function audit_refuse_change()',
      'create trigger audit_event_no_truncate before truncate on audit_event for ' +
        'each statement execute function audit_refuse_change()',
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
    down: [
      'drop function audit_purge(timestamptz)',
      'drop table audit_anchor',
      'drop trigger audit_event_no_truncate on audit_event',
      'drop trigger audit_event_append_only on audit_event',
      'drop table audit_event',
      'drop function audit_refuse_change()',
    ],
  },
  {
    // The purge switch was a setting any session could turn on, and audit_purge() took any cutoff:
    // DocQA's own role could delete the newest entries, or all of them, and verify still said valid.
    // Now a delete, however it is asked for, removes only entries older than the retention period
    // (RAG_AUDIT_RETENTION_DAYS, at least a day) and at or below the anchor, which moves only forward
    // and only onto such an entry; and the head (the newest entry's seq and hash) is kept by the
    // insert trigger alone, so verify sees entries missing at the newest end.
    name: '0016_audit_purge_bounds',
    up: [
      `create function audit_retention_cutoff() returns timestamptz language sql stable as $$
         select now() - make_interval(days => greatest(1, coalesce(
           (select (value #>> '{}')::int from runtime_setting where key = 'RAG_AUDIT_RETENTION_DAYS'), 365)))
       $$`,
      `create or replace function audit_refuse_change() returns trigger language plpgsql as $$
       begin
         if tg_op = 'DELETE' and current_setting('docqa.audit_purge', true) = 'on'
            and old.occurred_at < audit_retention_cutoff()
            and old.seq <= coalesce((select last_purged_seq from audit_anchor), 0) then
           return old;
         end if;
         raise exception 'audit_event is append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
       end
       $$`,
      `create or replace function audit_purge(cutoff timestamptz) returns bigint language plpgsql as $$
       declare
         last_row audit_event%rowtype;
         removed bigint;
       begin
         -- From the oldest end only: the newest entry before the first one that must be kept.
         select * into last_row from audit_event
          where seq < coalesce((select min(seq) from audit_event where occurred_at >= least(cutoff, audit_retention_cutoff())), 9223372036854775807)
          order by seq desc limit 1;
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
      `create function audit_anchor_forward_only() returns trigger language plpgsql as $$
       begin
         if tg_op = 'DELETE' then
           raise exception 'audit_anchor cannot be removed' using errcode = 'insufficient_privilege';
         end if;
         if tg_op = 'UPDATE' and new.last_purged_seq < old.last_purged_seq then
           raise exception 'audit_anchor moves only forward' using errcode = 'insufficient_privilege';
         end if;
         if not exists (select 1 from audit_event e where e.seq = new.last_purged_seq and e.hash = new.last_purged_hash
                        and e.occurred_at < audit_retention_cutoff()) then
           raise exception 'audit_anchor must name an entry older than the retention period' using errcode = 'insufficient_privilege';
         end if;
         return new;
       end
       $$`,
      'create trigger audit_anchor_guard before insert or update or delete on ' +
        'audit_anchor for each row execute function audit_anchor_forward_only()',
      `create table audit_head (
        singleton boolean primary key default true check (singleton),
        head_seq bigint not null,
        head_hash text not null
      )`,
      'insert into audit_head (singleton, head_seq, head_hash) select true, ' +
        'seq, hash from audit_event order by seq desc limit 1',
      `create function audit_head_follow() returns trigger language plpgsql as $$
       begin
         insert into audit_head (singleton, head_seq, head_hash) values (true, new.seq, new.hash)
           on conflict (singleton) do update set head_seq = excluded.head_seq, head_hash = excluded.head_hash;
         return null;
       end
       $$`,
      'create trigger audit_event_head after insert on audit_event for each row execute function audit_head_follow()',
      // Only the insert trigger writes the head: a statement of its own runs at trigger depth 1.
      `create function audit_head_guard() returns trigger language plpgsql as $$
       begin
         if pg_trigger_depth() < 2 then
           raise exception 'audit_head is kept by the audit log itself' using errcode = 'insufficient_privilege';
         end if;
         return coalesce(new, old);
       end
       $$`,
      'create trigger audit_head_guard before insert or update or delete on ' +
        'audit_head for each row execute function audit_head_guard()',
    ],
    down: [
      'drop trigger audit_head_guard on audit_head',
      'drop function audit_head_guard()',
      'drop trigger audit_event_head on audit_event',
      'drop function audit_head_follow()',
      'drop table audit_head',
      'drop trigger audit_anchor_guard on audit_anchor',
      'drop function audit_anchor_forward_only()',
    ],
  },
];
