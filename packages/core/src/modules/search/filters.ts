import { DocqaError, type SqlParams } from '@docqa/plugin-api';
import { documentAccessPredicate } from '../groups/contract.js';

export interface SearchFilters {
  document_ids?: string[];
  metadata?: Record<string, string>;
  /** Where the documents came from, as GET /api/docs filters them. */
  source_type?: 'upload' | 'connector' | 'integration';
  /** One connector's or integration's documents. */
  source_id?: string;
}

export interface FilterLimits {
  maxKeys: number;
  maxKeyLength: number;
  maxValueLength: number;
}

/**
 * Each metadata key is a condition on every candidate chunk and its document: 10,000 keys over 300
 * documents kept PostgreSQL busy for 105 s. A filter past a limit is refused before any SQL, naming
 * the setting that holds it.
 */
export function checkFilterLimits(filters: SearchFilters | undefined, limits: FilterLimits): void {
  const entries = Object.entries(filters?.metadata ?? {});
  const refuse = (message: string, setting: string) => {
    throw new DocqaError('validation_failed', `The metadata filter ${message} (${setting}).`, {
      errors: [{ field: 'body.filters.metadata', message }],
      extra: { setting },
    });
  };
  if (entries.length > limits.maxKeys)
    refuse(`has ${entries.length} keys; at most ${limits.maxKeys} are allowed`, 'FILTER_MAX_KEYS');
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > limits.maxKeyLength)
      refuse(`has a key of ${key.length} characters; keys have 1 to ${limits.maxKeyLength}`, 'FILTER_MAX_KEY_LENGTH');
    if (value.length > limits.maxValueLength)
      refuse(
        `has a value of ${value.length} characters; at most ${limits.maxValueLength} are allowed`,
        'FILTER_MAX_VALUE_LENGTH',
      );
  }
}

/** Who may see what (null: everything) and what the caller narrowed the search to. */
export interface SearchScope {
  visibleToGroups: string[] | null;
  filters?: SearchFilters;
}

/** Conditions on a document (alias `doc`): indexed, visible to the groups, among the requested ids and source. */
export function documentConditions(doc: string, scope: SearchScope, params: SqlParams): string[] {
  const conditions = [`${doc}.status = 'indexed'`];
  if (scope.filters?.document_ids)
    conditions.push(`${doc}.id = any(${params.add(scope.filters.document_ids)}::uuid[])`);
  if (scope.filters?.source_type) conditions.push(`${doc}.source_type = ${params.add(scope.filters.source_type)}`);
  if (scope.filters?.source_id) conditions.push(`${doc}.source_id = ${params.add(scope.filters.source_id)}`);
  if (scope.visibleToGroups) conditions.push(documentAccessPredicate(doc, params.add(scope.visibleToGroups)));
  return conditions;
}

/**
 * Conditions on a chunk (alias `chunk`) of a document (alias `doc`): every requested metadata key
 * has the requested value on the chunk or on its document (chunk-level values are often absent).
 * Null when no metadata filter is asked for, so callers can skip joining chunk rows.
 */
export function metadataCondition(doc: string, chunk: string, scope: SearchScope, params: SqlParams): string | null {
  const entries = Object.entries(scope.filters?.metadata ?? {});
  if (entries.length === 0) return null;
  return entries
    .map(([key, value]) => {
      const keySql = params.add(key);
      const valueSql = params.add(value);
      return `(${chunk}.metadata ->> ${keySql} = ${valueSql} or ${doc}.metadata ->> ${keySql} = ${valueSql})`;
    })
    .join(' and ');
}

/** Whether anything narrows the search beyond "indexed documents": dense search must then be told which documents. */
export function isNarrowed(scope: SearchScope): boolean {
  return (
    scope.visibleToGroups !== null ||
    scope.filters?.document_ids !== undefined ||
    scope.filters?.source_type !== undefined ||
    scope.filters?.source_id !== undefined ||
    Object.keys(scope.filters?.metadata ?? {}).length > 0
  );
}
