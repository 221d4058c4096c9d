import { Migration } from '@mikro-orm/migrations';

/** Runtime settings and job progress: what the kernel itself keeps. */
export class Migration0001Foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table runtime_setting (
      key text primary key,
      value jsonb not null,
      updated_at timestamptz not null default now(),
      updated_by text null
    )`);
    this.addSql(`create table job_progress (
      job_id uuid primary key,
      done integer not null default 0,
      total integer null,
      updated_at timestamptz not null default now()
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists job_progress');
    this.addSql('drop table if exists runtime_setting');
  }
}
