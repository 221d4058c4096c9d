import { sortRules } from '../../index.js';
import { SqlParams, type Db } from '@docqa/plugin-api';
import { aggregateQuery, ratio, scopedDocuments, type SourceScope } from './scope.js';
import type { InheritanceRatio, MetadataCoverage, MetadataHitRate, RulePriorityAudit } from './schemas.js';

/*
 * The analytics of what the rules did, read from metadata_rule_outcome (analytics/schema.ts) and
 * joined to the scope's documents, so access control, deletions and re-indexing apply. Uploaded
 * documents have no rules, so their answers list none.
 *
 * Everything comes from one aggregate per rule. Per field, that is enough because outcome rows
 * are written for every rule that exists when a document is indexed or refreshed: the documents
 * holding a row for a rule are those last processed after the rule was created, so for the rules
 * of one field these sets are nested, and their union is the largest of them.
 */

interface RuleRow {
  id: string;
  field_name: string;
  level: 'document' | 'chunk';
  scope: 'full' | 'header' | 'filename';
  priority: number;
  chunk_boundary: boolean;
  matched: number;
  no_match: number;
  shadowed: number;
  failed: number;
  /** Documents with an outcome for the rule, and their chunks. */
  recorded: number;
  recorded_chunks: number;
  stale: number;
  self_chunks: number;
  inherited_chunks: number;
}

interface RuleTotals {
  documents: number;
  chunks: number;
  /** In evaluation order: priority, then id, as applyRules orders them. */
  rules: RuleRow[];
}

/** One pass over the outcomes of the scope's documents, hash-aggregated by rule. */
async function ruleTotals(db: Db, scope: SourceScope): Promise<RuleTotals> {
  const params = new SqlParams();
  const docs = scopedDocuments(scope, params, 'd.id, d.chunk_count');
  const ruleFilter = scope.sourceType === 'upload' ? 'false' : `source_id = ${params.add(scope.sourceId)}`;
  const row = await aggregateQuery<{ documents: number; chunks: number; rules: RuleRow[] }>(
    db,
    `with docs as materialized (${docs}),
     rules as materialized (select id, field_name, level, scope, priority, chunk_boundary, updated_at
       from metadata_rule where ${ruleFilter}),
     counts as (
       select o.rule_id,
         count(*) filter (where o.outcome = 'won') as matched,
         count(*) filter (where o.outcome = 'no_match') as no_match,
         count(*) filter (where o.outcome = 'shadowed') as shadowed,
         count(*) filter (where o.outcome = 'failed') as failed,
         count(*) as recorded, sum(docs.chunk_count) as recorded_chunks,
         count(*) filter (where o.evaluated_at < r.updated_at) as stale,
         sum(o.self_chunks) as self_chunks, sum(o.inherited_chunks) as inherited_chunks
       from metadata_rule_outcome o join rules r on r.id = o.rule_id join docs on docs.id = o.document_id
       group by o.rule_id),
     per_rule as (
       select r.id, r.field_name, r.level, r.scope, r.priority, r.chunk_boundary,
         coalesce(c.matched, 0) as matched, coalesce(c.no_match, 0) as no_match,
         coalesce(c.shadowed, 0) as shadowed, coalesce(c.failed, 0) as failed,
         coalesce(c.recorded, 0) as recorded, coalesce(c.recorded_chunks, 0) as recorded_chunks,
         coalesce(c.stale, 0) as stale,
         coalesce(c.self_chunks, 0) as self_chunks, coalesce(c.inherited_chunks, 0) as inherited_chunks
       from rules r left join counts c on c.rule_id = r.id)
     select (select count(*)::int from docs) as documents, (select coalesce(sum(chunk_count), 0)::int
       from docs) as chunks,
       (select coalesce(json_agg(per_rule), '[]') from per_rule) as rules`,
    params.values,
  );
  return { documents: row.documents, chunks: row.chunks, rules: sortRules(row.rules) };
}

function ruleFields(rule: RuleRow) {
  return {
    rule_id: rule.id,
    field_name: rule.field_name,
    level: rule.level,
    scope: rule.scope,
    priority: rule.priority,
    chunk_boundary: rule.chunk_boundary,
  };
}

function outcomeCounts(rule: RuleRow, documents: number) {
  return {
    matched: rule.matched,
    no_match: rule.no_match,
    shadowed: rule.shadowed,
    failed: rule.failed,
    not_applied: documents - rule.recorded,
    stale: rule.stale,
  };
}

/** The rules of each field, in evaluation order, fields by name. */
function byField(rules: RuleRow[]): Array<[string, RuleRow[]]> {
  const fields = new Map<string, RuleRow[]>();
  for (const rule of rules) fields.set(rule.field_name, [...(fields.get(rule.field_name) ?? []), rule]);
  return [...fields.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The documents (and their chunks) with outcomes for any rule of a field: the largest set, see above. */
function evaluated(rules: RuleRow[]): { documents: number; chunks: number } {
  const widest = rules.reduce((best, rule) => (rule.recorded > best.recorded ? rule : best));
  return { documents: widest.recorded, chunks: widest.recorded_chunks };
}

/** Chunks carrying the rule's value, own or inherited; for document-level rules every chunk of the document. */
const chunksSupplied = (rule: RuleRow) => rule.self_chunks + rule.inherited_chunks;

export async function metadataHitRate(db: Db, scope: SourceScope): Promise<MetadataHitRate> {
  const totals = await ruleTotals(db, scope);
  return {
    source_id: scope.sourceId,
    source_type: scope.sourceType,
    documents: totals.documents,
    chunks: totals.chunks,
    rules: totals.rules.map((rule) => ({
      ...ruleFields(rule),
      ...outcomeCounts(rule, totals.documents),
      self_chunks: rule.self_chunks,
      inherited_chunks: rule.inherited_chunks,
      document_match_rate: ratio(rule.matched, rule.matched + rule.no_match + rule.failed),
      document_hit_rate: ratio(rule.matched, totals.documents),
      chunk_hit_rate: ratio(rule.self_chunks, totals.chunks),
      chunk_value_rate: ratio(chunksSupplied(rule), totals.chunks),
    })),
  };
}

/**
 * Per field, the documents and chunks holding a value. Rule fields are counted from the outcomes
 * (a field has at most one winning rule per document, so the sums are exact, and they agree with
 * the chunk metadata written in the same transaction) rather than by reading every chunk's
 * metadata, a full read of the chunk table. Fields no rule produces (an extractor's, such as a
 * PDF's author) are counted on the documents, whose chunks never carry them.
 */
export async function metadataCoverage(db: Db, scope: SourceScope): Promise<MetadataCoverage> {
  const totals = await ruleTotals(db, scope);
  const params = new SqlParams();
  const docs = scopedDocuments(scope, params, 'd.metadata');
  const { extracted } = await aggregateQuery<{ extracted: Array<{ k: string; documents: number }> }>(
    db,
    `select coalesce(json_agg(json_build_object('k', k, 'documents', n)), '[]') as extracted
     from (select k, count(*)::int as n from (${docs}) docs cross join lateral jsonb_object_keys(docs.metadata) k
       group by k) keys`,
    params.values,
  );
  const ruleFieldNames = new Set(totals.rules.map((rule) => rule.field_name));
  const fields = [
    ...byField(totals.rules).map(([field, rules]) => ({
      field_name: field,
      rule_ids: rules.map((rule) => rule.id),
      documents: rules.reduce((sum, rule) => sum + rule.matched, 0),
      chunks: rules.reduce((sum, rule) => sum + chunksSupplied(rule), 0),
    })),
    ...extracted
      .filter((row) => !ruleFieldNames.has(row.k))
      .map((row) => ({ field_name: row.k, rule_ids: [], documents: row.documents, chunks: 0 })),
  ].sort((a, b) => (a.field_name < b.field_name ? -1 : a.field_name > b.field_name ? 1 : 0));
  return {
    source_id: scope.sourceId,
    source_type: scope.sourceType,
    documents: totals.documents,
    chunks: totals.chunks,
    fields: fields.map((field) => ({
      field_name: field.field_name,
      rule_ids: field.rule_ids,
      documents_with_value: field.documents,
      document_coverage: ratio(field.documents, totals.documents),
      chunks_with_value: field.chunks,
      chunk_coverage: ratio(field.chunks, totals.chunks),
    })),
  };
}

/**
 * Where competing rules of a field stand: for each field with two or more rules, every rule's
 * wins, misses and shadowed documents in evaluation order. At most one rule supplies a field per
 * document, so the documents with a value are the sum of the rules' wins.
 */
export async function rulePriorityAudit(db: Db, scope: SourceScope): Promise<RulePriorityAudit> {
  const totals = await ruleTotals(db, scope);
  return {
    source_id: scope.sourceId,
    source_type: scope.sourceType,
    documents: totals.documents,
    fields: byField(totals.rules)
      .filter(([, rules]) => rules.length > 1)
      .map(([field, rules]) => {
        const withValue = rules.reduce((sum, rule) => sum + rule.matched, 0);
        return {
          field_name: field,
          documents_with_value: withValue,
          documents_without_value: evaluated(rules).documents - withValue,
          equal_priorities: new Set(rules.map((rule) => rule.priority)).size < rules.length,
          rules: rules.map((rule, index) => ({
            ...ruleFields(rule),
            rank: index + 1,
            ...outcomeCounts(rule, totals.documents),
            win_share: ratio(rule.matched, withValue),
            chunks_supplied: chunksSupplied(rule),
          })),
        };
      }),
  };
}

/**
 * Self-matched, inherited and empty chunks for each field with a chunk-level rule, over the
 * documents with outcomes for the field's rules. A document-level rule of the same field puts its
 * value on every chunk of the documents it wins: counted apart, as `document_level`.
 */
export async function inheritanceRatio(db: Db, scope: SourceScope): Promise<InheritanceRatio> {
  const totals = await ruleTotals(db, scope);
  return {
    source_id: scope.sourceId,
    source_type: scope.sourceType,
    documents: totals.documents,
    fields: byField(totals.rules)
      .filter(([, rules]) => rules.some((rule) => rule.level === 'chunk'))
      .map(([field, rules]) => {
        const { documents, chunks } = evaluated(rules);
        const chunkRules = rules.filter((rule) => rule.level === 'chunk');
        const self = chunkRules.reduce((sum, rule) => sum + rule.self_chunks, 0);
        const inherited = chunkRules.reduce((sum, rule) => sum + rule.inherited_chunks, 0);
        const documentLevel = rules
          .filter((rule) => rule.level === 'document')
          .reduce((sum, rule) => sum + rule.self_chunks, 0);
        // Never below 0, even while outcomes of a changed rule are stale.
        const empty = Math.max(0, chunks - self - inherited - documentLevel);
        return {
          field_name: field,
          documents,
          chunks,
          self,
          inherited,
          document_level: documentLevel,
          empty,
          self_ratio: ratio(self, chunks),
          inherited_ratio: ratio(inherited, chunks),
          empty_ratio: ratio(empty, chunks),
          inherited_share: ratio(inherited, self + inherited),
          rules: chunkRules.map((rule) => ({
            rule_id: rule.id,
            priority: rule.priority,
            documents_won: rule.matched,
            self: rule.self_chunks,
            inherited: rule.inherited_chunks,
          })),
        };
      }),
  };
}
