import crypto from 'node:crypto';
import {
  DocqaError,
  pageTotal,
  type AuditEvent,
  type AuditService,
  type Db,
  type Logger,
  type Plan,
} from '@docqa/plugin-api';
import { chainHash, genesisHash } from './hash-chain.js';
import type { AuditEntry, AuditLog, AuditQuery, ChainVerification } from './contract.js';

interface AuditRow {
  seq: string;
  id: string;
  occurred_at: string;
  type: string;
  actor_id: string | null;
  actor_username: string | null;
  ip: string | null;
  target: string | null;
  outcome: 'success' | 'failure';
  details: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

/** One lock key for every writer of the chain, so two replicas never link to the same previous row. */
const chainLockKey = 0x0d0c_a0d1;
const verifyPageSize = 1000;

/**
 * The audit log in the database, hash-chained. Events are stored while the plan is ENTERPRISE (the
 * plan that has the audit log); on every plan they also go to the log as structured lines, as
 * before there was a store.
 */
export class AuditStore implements AuditService, AuditLog {
  readonly #log: Logger;

  constructor(
    private readonly db: Db,
    logger: Logger,
    private readonly plan: () => Plan,
  ) {
    this.#log = logger.child({ component: 'audit' });
  }

  async record(event: AuditEvent): Promise<void> {
    this.#log.info(
      {
        audit: true,
        event: event.type,
        actor: event.actor?.id ?? null,
        ip: event.ip ?? null,
        target: event.target ?? null,
        outcome: event.outcome,
        details: event.details,
      },
      `audit ${event.type}`,
    );
    if (this.plan() !== 'ENTERPRISE') return;
    const fields = {
      id: crypto.randomUUID(),
      occurredAt: new Date().toISOString(),
      type: event.type,
      actorId: event.actor?.id ?? null,
      actorUsername: event.actor?.username ?? null,
      ip: event.ip ?? null,
      target: event.target ?? null,
      outcome: event.outcome,
      // Round-tripped through JSON so the hash covers exactly what jsonb will hold.
      details: JSON.parse(JSON.stringify(event.details ?? {})) as Record<string, unknown>,
    };
    await this.db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [chainLockKey]);
      const { rows } = await tx.query<{ hash: string }>('select hash from audit_event order by seq desc limit 1');
      const prevHash = rows[0]?.hash ?? (await this.#anchor(tx)).hash;
      await tx.query(
        `insert into audit_event (id, occurred_at, type, actor_id, actor_username, ip, target, outcome, details,
          prev_hash, hash)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          fields.id,
          fields.occurredAt,
          fields.type,
          fields.actorId,
          fields.actorUsername,
          fields.ip,
          fields.target,
          fields.outcome,
          JSON.stringify(fields.details),
          prevHash,
          chainHash(prevHash, fields),
        ],
      );
    });
  }

  async query(filter: AuditQuery): Promise<{ items: AuditEntry[]; total: number }> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    const add = (value: unknown) => `$${params.push(value)}`;
    if (filter.type) conditions.push(`type = ${add(filter.type)}`);
    if (filter.outcome) conditions.push(`outcome = ${add(filter.outcome)}`);
    if (filter.user)
      conditions.push(
        isUuid(filter.user) ? `actor_id = ${add(filter.user)}::uuid` : `actor_username = ${add(filter.user)}`,
      );
    if (filter.from) conditions.push(`occurred_at >= ${add(filter.from.toISOString())}`);
    if (filter.to) conditions.push(`occurred_at < ${add(filter.to.toISOString())}`);
    const where = conditions.length > 0 ? `where ${conditions.join(' and ')}` : '';
    const limitAt = params.length;
    const sql =
      `select *, count(*) over () as total from audit_event ${where} order by seq desc ` +
      `limit ${add(filter.limit)} offset ${add(filter.offset)}`;
    const { rows } = await this.db.query<AuditRow & { total: string }>(sql, params);
    const firstPageParams = [...params.slice(0, limitAt), 1, 0];
    const firstRow = async () => (await this.db.query<AuditRow & { total: string }>(sql, firstPageParams)).rows;
    return { items: rows.map(toEntry), total: await pageTotal(rows, filter.offset, (row) => row.total, firstRow) };
  }

  async get(id: string): Promise<AuditEntry> {
    const { rows } = await this.db.query<AuditRow>('select * from audit_event where id = $1', [id]);
    if (!rows[0]) throw new DocqaError('not_found', `Audit entry ${id} was not found.`);
    return toEntry(rows[0]);
  }

  /** Recomputes every hash from the anchor on, page by page, and names the first row that does not fit. */
  async verify(): Promise<ChainVerification> {
    const anchor = await this.#anchor(this.db);
    let prevHash = anchor.hash;
    let afterSeq = anchor.afterSeq ?? 0;
    let checked = 0;
    const result = (broken: ChainVerification['broken_at']): ChainVerification => ({
      valid: broken === null,
      checked,
      anchor: { hash: anchor.hash, after_seq: anchor.afterSeq },
      broken_at: broken,
    });
    for (;;) {
      const { rows } = await this.db.query<AuditRow>('select * from audit_event where seq > $1 order by seq limit $2', [
        afterSeq,
        verifyPageSize,
      ]);
      for (const row of rows) {
        const seq = Number(row.seq);
        if (row.prev_hash !== prevHash)
          return result({
            id: row.id,
            seq,
            reason: 'its previous hash does not match the row before it (a row was removed or changed)',
          });
        const expected = chainHash(prevHash, {
          id: row.id,
          occurredAt: new Date(row.occurred_at).toISOString(),
          type: row.type,
          actorId: row.actor_id,
          actorUsername: row.actor_username,
          ip: row.ip,
          target: row.target,
          outcome: row.outcome,
          details: row.details,
        });
        if (row.hash !== expected)
          return result({ id: row.id, seq, reason: 'its content does not match its hash (the row was changed)' });
        prevHash = row.hash;
        afterSeq = seq;
        checked += 1;
      }
      if (rows.length < verifyPageSize) break;
    }
    // Entries removed at the newest end leave a chain that is whole but ends early: the head says
    // where it must end.
    const { rows: heads } = await this.db.query<{ head_seq: string; head_hash: string }>(
      'select head_seq, head_hash from audit_head',
    );
    const head = heads[0];
    if (
      head &&
      Number(head.head_seq) > (anchor.afterSeq ?? 0) &&
      (Number(head.head_seq) !== afterSeq || head.head_hash !== prevHash)
    ) {
      return result({
        id: null,
        seq: Number(head.head_seq),
        reason: `the newest entries, up to seq ${head.head_seq}, are missing (removed at the end of the log)`,
      });
    }
    return result(null);
  }

  /** The retention sweep's path: removes entries older than `days` through audit_purge(). */
  async purgeOlderThan(days: number): Promise<number> {
    const { rows } = await this.db.query<{ removed: string }>(
      'select audit_purge(now() - make_interval(days => $1)) as removed',
      [days],
    );
    return Number(rows[0]?.removed ?? 0);
  }

  async #anchor(executor: Pick<Db, 'query'>): Promise<{ hash: string; afterSeq: number | null }> {
    const { rows } = await executor.query<{ last_purged_seq: string; last_purged_hash: string }>(
      'select last_purged_seq, last_purged_hash from audit_anchor',
    );
    return rows[0]
      ? { hash: rows[0].last_purged_hash, afterSeq: Number(rows[0].last_purged_seq) }
      : { hash: genesisHash, afterSeq: null };
  }
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    seq: Number(row.seq),
    occurred_at: new Date(row.occurred_at).toISOString(),
    type: row.type,
    actor: row.actor_id ? { id: row.actor_id, username: row.actor_username ?? '' } : null,
    ip: row.ip,
    target: row.target,
    outcome: row.outcome,
    details: row.details,
    prev_hash: row.prev_hash,
    hash: row.hash,
  };
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
