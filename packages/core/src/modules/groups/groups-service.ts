import crypto from 'node:crypto';
import { DocqaError, pageTotal, type Db, type Plan } from '@docqa/plugin-api';
import type { Principal } from '../identity/contract.js';
import {
  accessPredicate,
  everyoneGroupId,
  type AccessScope,
  type GroupRecord,
  type GroupsService,
  type ResourceType,
} from './contract.js';
import { Memberships } from './memberships.js';

interface GroupRow {
  id: string;
  name: string;
  description: string;
  builtin: boolean;
  member_count: string | null;
  created_at: string;
  updated_at: string;
}

const toRecord = (row: GroupRow): GroupRecord => ({
  id: row.id,
  name: row.name,
  description: row.description,
  builtin: row.builtin,
  member_count: row.builtin ? null : Number(row.member_count ?? 0),
  created_at: new Date(row.created_at).toISOString(),
  updated_at: new Date(row.updated_at).toISOString(),
});

function conflictOnDuplicate(error: unknown): never {
  if ((error as { code?: string }).code === '23505')
    throw new DocqaError('conflict', 'Another group already has this name.');
  throw error;
}

/** Groups, membership and resource grants in the database; beyond `everyone`, ENTERPRISE only. */
export class StoredGroups implements GroupsService {
  /** Read by scopeFor at every request of a viewer or editor; the writes below forget what they change. */
  readonly memberships = new Memberships();

  constructor(
    private readonly db: Db,
    private readonly currentPlan: () => Plan,
  ) {}

  #enterprise(): boolean {
    return this.currentPlan() === 'ENTERPRISE';
  }

  async list(limit: number, offset: number): Promise<{ items: GroupRecord[]; total: number }> {
    // Spec 8.1: on FREE and PRO only the built-in everyone group is visible.
    const onlyBuiltin = !this.#enterprise();
    const sql = `select g.*, (select count(*) from user_group_member m where m.group_id = g.id) as member_count, count(*) over () as total
         from user_group g where ($3::boolean is false or g.builtin) order by g.builtin desc, lower(g.name) limit $1 offset $2`;
    const { rows } = await this.db.query<GroupRow & { total: string }>(sql, [limit, offset, onlyBuiltin]);
    const firstRow = async () => (await this.db.query<GroupRow & { total: string }>(sql, [1, 0, onlyBuiltin])).rows;
    return { items: rows.map(toRecord), total: await pageTotal(rows, offset, (row) => row.total, firstRow) };
  }

  async get(id: string): Promise<GroupRecord> {
    const { rows } = await this.db.query<GroupRow>(
      'select g.*, (select count(*) from user_group_member m where m.group_id = g.id) as member_count from user_group g where g.id = $1',
      [id],
    );
    const row = rows[0];
    if (!row || (!row.builtin && !this.#enterprise())) throw new DocqaError('not_found', `Group ${id} was not found.`);
    return toRecord(row);
  }

  async create(name: string, description: string): Promise<GroupRecord> {
    try {
      const { rows } = await this.db.query<GroupRow>(
        'insert into user_group (id, name, description) values ($1, $2, $3) returning *, 0 as member_count',
        [crypto.randomUUID(), name, description],
      );
      return toRecord(rows[0] as GroupRow);
    } catch (error) {
      conflictOnDuplicate(error);
    }
  }

  async update(id: string, changes: { name?: string; description?: string }): Promise<GroupRecord> {
    const group = await this.get(id);
    if (group.builtin) throw new DocqaError('conflict', 'The built-in everyone group cannot be changed.');
    try {
      await this.db.query(
        'update user_group set name = coalesce($2, name), description = coalesce($3, description), updated_at = now() where id = $1',
        [id, changes.name ?? null, changes.description ?? null],
      );
    } catch (error) {
      conflictOnDuplicate(error);
    }
    return this.get(id);
  }

  async delete(id: string): Promise<void> {
    const group = await this.get(id);
    if (group.builtin) throw new DocqaError('conflict', 'The built-in everyone group cannot be deleted.');
    await this.db.query('delete from user_group where id = $1', [id]);
    this.memberships.clear(); // its members' rows went with it
  }

  async members(id: string): Promise<Array<{ id: string; username: string }>> {
    const group = await this.get(id);
    const sql = group.builtin
      ? 'select id, username from app_user order by lower(username)'
      : 'select u.id, u.username from user_group_member m join app_user u on u.id = m.user_id where m.group_id = $1 order by lower(u.username)';
    const { rows } = await this.db.query<{ id: string; username: string }>(sql, group.builtin ? [] : [id]);
    return rows;
  }

  async addMember(id: string, userId: string): Promise<void> {
    const group = await this.get(id);
    if (group.builtin) throw new DocqaError('conflict', 'Every user is in the everyone group already.');
    const { rowCount } = await this.db.query(
      'insert into user_group_member (group_id, user_id) select $1, id from app_user where id = $2 on conflict do nothing',
      [id, userId],
    );
    this.memberships.forget(userId);
    if (rowCount === 0) {
      const exists = await this.db.query('select 1 from app_user where id = $1', [userId]);
      if (exists.rowCount === 0) throw new DocqaError('not_found', `User ${userId} was not found.`);
    }
  }

  async removeMember(id: string, userId: string): Promise<void> {
    const group = await this.get(id);
    if (group.builtin) throw new DocqaError('conflict', 'No one can leave the everyone group.');
    await this.db.query('delete from user_group_member where group_id = $1 and user_id = $2', [id, userId]);
    this.memberships.forget(userId);
  }

  async groupsOfUser(userId: string): Promise<GroupRecord[]> {
    const { rows } = await this.db.query<GroupRow>(
      `select g.*, null as member_count from user_group g where g.builtin or ($2::boolean and g.id in (select group_id from user_group_member where user_id = $1)) order by g.builtin desc, lower(g.name)`,
      [userId, this.#enterprise()],
    );
    return rows.map(toRecord);
  }

  /** The groups allowed to see a resource; empty means open to every signed-in user. */
  async resourceGroups(type: ResourceType, resourceId: string): Promise<string[]> {
    const { rows } = await this.db.query<{ group_id: string }>(
      'select group_id from resource_access where resource_type = $1 and resource_id = $2 order by group_id',
      [type, resourceId],
    );
    return rows.map((row) => row.group_id);
  }

  /** Replaces who may see a resource. Unknown group ids are refused together, changing nothing. */
  async setResourceGroups(type: ResourceType, resourceId: string, groupIds: string[]): Promise<string[]> {
    const unique = [...new Set(groupIds)];
    const { rows } = await this.db.query<{ id: string }>('select id from user_group where id = any($1::uuid[])', [
      unique,
    ]);
    const missing = unique.filter((id) => !rows.some((row) => row.id === id));
    if (missing.length > 0) {
      throw new DocqaError('validation_failed', `Unknown groups: ${missing.join(', ')}.`, {
        errors: missing.map((id) => ({ field: 'body.group_ids', message: `group ${id} does not exist` })),
      });
    }
    await this.db.transaction(async (tx) => {
      await tx.query('delete from resource_access where resource_type = $1 and resource_id = $2', [type, resourceId]);
      if (unique.length > 0) {
        await tx.query(
          'insert into resource_access (resource_type, resource_id, group_id) select $1, $2, unnest($3::uuid[])',
          [type, resourceId, unique],
        );
      }
    });
    return this.resourceGroups(type, resourceId);
  }

  async scopeFor(principal: Principal): Promise<AccessScope> {
    if (principal.role === 'admin' || !this.#enterprise()) return { all: true };
    const groupIds = await this.memberships.load(principal.userId, async () => {
      const { rows } = await this.db.query<{ group_id: string }>(
        'select group_id from user_group_member where user_id = $1',
        [principal.userId],
      );
      return [everyoneGroupId, ...rows.map((row) => row.group_id)];
    });
    return { all: false, groupIds };
  }

  /** Whether a principal may see a resource; the single-resource form of `accessPredicate`. */
  async canSee(principal: Principal, type: ResourceType, resourceId: string): Promise<boolean> {
    const scope = await this.scopeFor(principal);
    if (scope.all) return true;
    const { rows } = await this.db.query<{ visible: boolean }>(
      `select ${accessPredicate('$1', '$2', '$3')} as visible`,
      [type, resourceId, scope.groupIds],
    );
    return rows[0]?.visible === true;
  }
}
