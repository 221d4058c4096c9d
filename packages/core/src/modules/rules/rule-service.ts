import crypto from 'node:crypto';
import { DocqaError, type Db, type JobsService } from '@docqa/plugin-api';
import {
  applyRules,
  chunkDocument,
  documentText,
  parseRule,
  RuleRunner,
  type MetadataRule,
  type RuleBudget,
  type MetadataRuleFields,
} from '../../index.js';
import {
  metadataRefreshQueue,
  type MetadataRefreshData,
  type RuleTestResult,
  type RuleView,
  type RulesService,
} from './contract.js';

interface RuleRow extends MetadataRuleFields {
  id: string;
  source_id: string;
  source_type: 'connector' | 'integration';
  created_at: string;
  updated_at: string;
}

function presentRule(row: RuleRow): RuleView {
  return {
    id: row.id,
    field_name: row.field_name,
    pattern: row.pattern,
    query_pattern: row.query_pattern ?? null,
    scope: row.scope,
    level: row.level,
    chunk_boundary: row.chunk_boundary,
    priority: row.priority,
    source_id: row.source_id,
    source_type: row.source_type,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** Rule problems name body fields, as every validation error of the API does. */
function parseBody(input: unknown): MetadataRuleFields {
  // What a GET answered may be sent back whole: its read-only fields are not the rule's to judge.
  const {
    id: _id,
    source_id: _source,
    source_type: _type,
    created_at: _created,
    updated_at: _updated,
    ...rule
  } = (input ?? {}) as Record<string, unknown>;
  try {
    return parseRule(rule);
  } catch (error) {
    if (DocqaError.is(error) && error.errors) {
      throw new DocqaError(
        'validation_failed',
        `The metadata rule is invalid: ${error.errors.map((e) => `body.${e.field} ${e.message}`).join('; ')}`,
        { errors: error.errors.map((e) => ({ field: `body.${e.field}`, message: e.message })) },
      );
    }
    throw error;
  }
}

/** Rules per source, a dry run of a pattern, and the rules the ingestion and chat apply. */
export class StoredRules implements RulesService {
  readonly runner: RuleRunner;

  constructor(
    private readonly db: Db,
    private readonly jobs: JobsService,
    budget: RuleBudget,
  ) {
    this.runner = new RuleRunner(budget);
  }

  async #source(sourceId: string): Promise<'connector' | 'integration'> {
    const { rows } = await this.db.query<{ kind: 'connector' | 'integration' }>(
      'select kind from source where id = $1',
      [sourceId],
    );
    if (!rows[0]) throw new DocqaError('not_found', `No connector or integration ${sourceId} exists.`);
    return rows[0].kind;
  }

  async list(sourceId: string): Promise<RuleView[]> {
    return (await this.page(sourceId, { limit: null, offset: 0 })).items;
  }

  async page(
    sourceId: string,
    page: { limit: number | null; offset: number },
  ): Promise<{ items: RuleView[]; total: number }> {
    await this.#source(sourceId);
    const { rows } = await this.db.query<RuleRow & { total: string }>(
      `select r.*, s.kind as source_type, count(*) over () as total from metadata_rule r join source s
        on s.id = r.source_id
        where r.source_id = $1 order by r.priority desc, r.created_at, r.id limit $2 offset $3`,
      [sourceId, page.limit, page.offset],
    );
    // A page past the end has no rows to carry the count: ask for it alone then.
    const total = rows[0] ? Number(rows[0].total) : await this.#count(sourceId);
    return { items: rows.map(presentRule), total };
  }

  async #count(sourceId: string): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>(
      'select count(*) as n from metadata_rule where source_id = $1',
      [sourceId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  async create(sourceId: string, input: unknown): Promise<RuleView> {
    await this.#source(sourceId);
    const rule = parseBody(input);
    const { rows } = await this.db.query<{ id: string }>(
      'insert into metadata_rule (id, source_id, field_name, pattern, query_pattern, scope, level, ' +
        'chunk_boundary, priority) values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id',
      [
        crypto.randomUUID(),
        sourceId,
        rule.field_name,
        rule.pattern,
        rule.query_pattern ?? null,
        rule.scope,
        rule.level,
        rule.chunk_boundary,
        rule.priority,
      ],
    );
    return this.#get(sourceId, (rows[0] as { id: string }).id);
  }

  async update(sourceId: string, ruleId: string, input: unknown): Promise<RuleView> {
    await this.#get(sourceId, ruleId);
    const rule = parseBody(input);
    await this.db.query(
      'update metadata_rule set field_name = $3, pattern = $4, query_pattern = $5, scope = $6, level = $7, ' +
        'chunk_boundary = $8, priority = $9, updated_at = now() where id = $1 and source_id = $2',
      [
        ruleId,
        sourceId,
        rule.field_name,
        rule.pattern,
        rule.query_pattern ?? null,
        rule.scope,
        rule.level,
        rule.chunk_boundary,
        rule.priority,
      ],
    );
    return this.#get(sourceId, ruleId);
  }

  async delete(sourceId: string, ruleId: string): Promise<void> {
    await this.#get(sourceId, ruleId);
    await this.db.query('delete from metadata_rule where id = $1', [ruleId]);
  }

  async #get(sourceId: string, ruleId: string): Promise<RuleView> {
    await this.#source(sourceId);
    const { rows } = await this.db.query<RuleRow>(
      'select r.*, s.kind as source_type from metadata_rule r join source s on ' +
        's.id = r.source_id where r.id = $1 and r.source_id = $2',
      [ruleId, sourceId],
    );
    if (!rows[0]) throw new DocqaError('not_found', `Rule ${ruleId} was not found in source ${sourceId}.`);
    return presentRule(rows[0]);
  }

  /** The stored rules of a source, as the rule engine takes them. */
  async rulesOf(sourceId: string): Promise<MetadataRule[]> {
    const { rows } = await this.db.query<RuleRow>('select * from metadata_rule where source_id = $1', [sourceId]);
    return rows.map(toMetadataRule);
  }

  /** Every stored rule of every source: query classification uses them all. */
  async allRules(): Promise<MetadataRule[]> {
    const { rows } = await this.db.query<RuleRow>('select * from metadata_rule');
    return rows.map(toMetadataRule);
  }

  /**
   * Runs one rule on sample text without saving anything: what the document and each chunk of the
   * sample would get. The sample is chunked like a real document of paragraphs.
   */
  async test(
    sourceId: string,
    input: { rule: unknown; sample_text: string; filename: string },
  ): Promise<RuleTestResult> {
    await this.#source(sourceId);
    const rule = { ...parseBody(input.rule), id: 'test' };
    const extracted = {
      blocks: input.sample_text
        .split(/\n\s*\n/)
        .filter((part) => part.trim() !== '')
        .map((text) => ({ kind: 'paragraph' as const, text })),
      metadata: {},
    };
    const text = documentText(extracted);
    // A boundary rule splits chunks where it matches, as indexing does: find the splits first.
    const split = rule.chunk_boundary
      ? await applyRules([rule], { filename: input.filename, text, chunks: [] }, { runner: this.runner })
      : null;
    const chunks = chunkDocument(extracted, {
      targetTokens: 256,
      minChunkLength: 0,
      boundaries: split?.boundaries ?? [],
    });
    const result = await applyRules([rule], { filename: input.filename, text, chunks }, { runner: this.runner });
    return {
      document: result.document,
      chunks: chunks.map((chunk, i) => ({
        text: chunk.text,
        values: result.chunks[i]?.values ?? {},
        origin: result.chunks[i]?.origin ?? {},
      })),
      boundaries: result.boundaries,
      error: result.failures[0]?.error ?? null,
    };
  }

  async requestRefresh(sourceId: string): Promise<string> {
    const sourceType = await this.#source(sourceId);
    return this.jobs.send<MetadataRefreshData>(metadataRefreshQueue, {
      sourceId,
      sourceType,
      kind: 'metadata_refresh',
    });
  }

  close(): Promise<void> {
    return this.runner.close();
  }
}

/** A stored rule as the rule engine takes it. */
function toMetadataRule(row: RuleRow): MetadataRule {
  return {
    id: row.id,
    field_name: row.field_name,
    pattern: row.pattern,
    query_pattern: row.query_pattern ?? null,
    scope: row.scope,
    level: row.level,
    chunk_boundary: row.chunk_boundary,
    priority: row.priority,
  };
}
