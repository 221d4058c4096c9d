import { createToken } from '@docqa/plugin-api';
import type { Principal } from '../identity/contract.js';

// What other code may know of the groups module: its token, its service, the shapes it speaks in,
// and the SQL that decides who sees what, so lists, search and analytics filter inside the database.

/** The id of the built-in group every user belongs to; fixed so code and data agree on it. */
export const everyoneGroupId = '00000000-0000-4000-8000-000000000001';

export type ResourceType = 'connector' | 'integration' | 'document';

export interface GroupRecord {
  id: string;
  name: string;
  description: string;
  builtin: boolean;
  member_count: number | null;
  created_at: string;
  updated_at: string;
}

/**
 * What a principal may see. `all` for admins and on plans without resource access control;
 * otherwise the groups the user is in (always including `everyone`). Retrieval, document lists
 * and source lists turn this into SQL with `accessPredicate`.
 */
export type AccessScope = { all: true } | { all: false; groupIds: string[] };

export interface GroupsService {
  list(limit: number, offset: number): Promise<{ items: GroupRecord[]; total: number }>;
  /** `not_found` for an unknown group, and for any but `everyone` below ENTERPRISE. */
  get(id: string): Promise<GroupRecord>;
  /** `conflict` when another group has the name. */
  create(name: string, description: string): Promise<GroupRecord>;
  update(id: string, changes: { name?: string; description?: string }): Promise<GroupRecord>;
  delete(id: string): Promise<void>;
  members(id: string): Promise<Array<{ id: string; username: string }>>;
  addMember(id: string, userId: string): Promise<void>;
  removeMember(id: string, userId: string): Promise<void>;
  groupsOfUser(userId: string): Promise<GroupRecord[]>;
  /** The groups allowed to see a resource; empty means open to every signed-in user. */
  resourceGroups(type: ResourceType, resourceId: string): Promise<string[]>;
  /** Replaces who may see a resource. Unknown group ids are refused together, changing nothing. */
  setResourceGroups(type: ResourceType, resourceId: string, groupIds: string[]): Promise<string[]>;
  scopeFor(principal: Principal): Promise<AccessScope>;
  /** Whether a principal may see a resource; the single-resource form of `accessPredicate`. */
  canSee(principal: Principal, type: ResourceType, resourceId: string): Promise<boolean>;
}

export const groupsTokens = {
  service: createToken<GroupsService>('groups.service'),
};

/**
 * SQL that is true when a resource is visible to a scope's groups: no access rows (open), or a row
 * for one of the groups. Placeholders name the resource type, its id and the uuid[] of groups, so
 * list and retrieval queries filter inside the database rather than after it.
 */
export function accessPredicate(typeSql: string, idSql: string, groupsSql: string): string {
  return `(not exists (select 1 from resource_access ra where ra.resource_type = ${typeSql} and ra.resource_id = ${idSql}::text)
    or exists (select 1 from resource_access ra where ra.resource_type = ${typeSql} and ra.resource_id = ${idSql}::text and ra.group_id = any(${groupsSql}::uuid[])))`;
}

/**
 * SQL true when a document (table alias `doc`, with id, source_type, source_id) is visible to the
 * groups in `groupsSql`: its own grants decide; without any, its source's grants; without those it
 * is open. The one definition document lists, search and chat filter with.
 */
export function documentAccessPredicate(doc: string, groupsSql: string): string {
  const grants = (type: string, id: string) =>
    `select 1 from resource_access ra where ra.resource_type = ${type} and ra.resource_id = ${id}`;
  return `(case when exists (${grants("'document'", `${doc}.id::text`)})
      then exists (${grants("'document'", `${doc}.id::text`)} and ra.group_id = any(${groupsSql}::uuid[]))
    when ${doc}.source_id is not null and exists (${grants(`${doc}.source_type`, `${doc}.source_id`)})
      then exists (${grants(`${doc}.source_type`, `${doc}.source_id`)} and ra.group_id = any(${groupsSql}::uuid[]))
    else true end)`;
}
