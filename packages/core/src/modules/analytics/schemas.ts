import { z } from 'zod';

/*
 * The answers of the analytics endpoints (spec 4.7). The service returns exactly these shapes and
 * the routes hand them to the OpenAPI document, so what is documented is what is computed.
 * Rates are fractions from 0 to 1 rounded to 4 decimals, null when nothing was there to count.
 */

const count = z.number().int().min(0);
const rate = (what: string) => z.number().min(0).max(1).nullable().describe(what);

const source = {
  source_id: z.string().describe('The connector or integration id, or `uploads` for uploaded documents.'),
  source_type: z.enum(['connector', 'integration', 'upload']),
  documents: count.describe('Indexed documents of the source (the ones analysed).'),
};

export const summarySchema = z
  .object({
    count,
    min: z.number().nullable(),
    max: z.number().nullable(),
    mean: z.number().nullable(),
    median: z.number().nullable(),
    p90: z.number().nullable(),
  })
  .describe('Summary statistics; percentiles interpolate linearly (percentile_cont). Null when count is 0.');

export const bucketSchema = z.object({
  min: count.describe('Inclusive lower edge.'),
  max: count.nullable().describe('Exclusive upper edge; null for the last, open bucket.'),
  count,
});

export const chunkSizeDistributionSchema = z.object({
  ...source,
  unit: z.literal('characters'),
  summary: summarySchema,
  histogram: z.array(bucketSchema),
  min_chunk_length: count.describe('RAG_MIN_CHUNK_LENGTH now in effect.'),
  below_min_chunk_length: count.describe(
    'Chunks shorter than it: whole short documents, or chunks indexed under a lower setting.',
  ),
});

export const chunksPerDocumentSchema = z.object({
  ...source,
  documents_not_indexed: count.describe('Documents of the source pending, indexing or failed: not counted above.'),
  summary: summarySchema,
  histogram: z.array(bucketSchema),
  largest: z
    .array(z.object({ document_id: z.uuid(), path: z.string(), chunks: count }))
    .describe('The documents with the most chunks, at most 10.'),
});

const ruleFields = {
  rule_id: z.uuid(),
  field_name: z.string(),
  level: z.enum(['document', 'chunk']),
  scope: z.enum(['full', 'header', 'filename']),
  priority: z.number().int(),
  chunk_boundary: z.boolean(),
};

const outcomeCounts = {
  matched: count.describe('Documents where the rule matched and supplied the field.'),
  no_match: count.describe('Documents where the rule ran without a match.'),
  shadowed: count.describe(
    'Documents where the rule did not run: a rule earlier in priority order had supplied the field.',
  ),
  failed: count.describe('Documents where the rule failed (over its time budget).'),
  not_applied: count.describe(
    'Indexed documents without an outcome for the rule: indexed before ' +
      'the rule existed. A metadata refresh fills them.',
  ),
  stale: count.describe('Outcomes recorded before the rule was last changed. A metadata refresh updates them.'),
};

export const metadataHitRateSchema = z.object({
  ...source,
  chunks: count.describe('Chunks of the indexed documents.'),
  rules: z
    .array(
      z.object({
        ...ruleFields,
        ...outcomeCounts,
        self_chunks: count.describe(
          'Chunks whose value comes from a match inside them (every chunk of a ' +
            'matched document for document-level rules).',
        ),
        inherited_chunks: count.describe('Chunks that inherited the value from an earlier chunk (chunk-level rules).'),
        document_match_rate: rate(
          'matched / (matched + no_match + failed): how often the pattern matches where it runs.',
        ),
        document_hit_rate: rate(
          "matched / documents: share of the source's documents that got the field from this rule.",
        ),
        chunk_hit_rate: rate('self_chunks / chunks.'),
        chunk_value_rate: rate('(self_chunks + inherited_chunks) / chunks.'),
      }),
    )
    .describe('Every rule of the source, in the order the rules are applied (priority, then id).'),
});

export const metadataCoverageSchema = z.object({
  ...source,
  chunks: count,
  fields: z
    .array(
      z.object({
        field_name: z.string(),
        rule_ids: z
          .array(z.uuid())
          .describe(
            'Rules of the source producing this field, in evaluation order; empty for a field only ' +
              "the extractor sets (a PDF's author), which chunks never carry.",
          ),
        documents_with_value: count.describe('Documents with the field on the document or on at least one chunk.'),
        document_coverage: rate('documents_with_value / documents.'),
        chunks_with_value: count,
        chunk_coverage: rate('chunks_with_value / chunks.'),
      }),
    )
    .describe(
      'Every field a rule of the source produces, and every other field on an indexed document, by name. Rule ' +
        'fields are counted from the recorded rule outcomes (see metadata-hit-rate for documents not yet evaluated).',
    ),
});

export const inheritanceRatioSchema = z.object({
  ...source,
  fields: z
    .array(
      z.object({
        field_name: z.string(),
        documents: count.describe(
          'Documents with an outcome for a rule of the field (documents indexed ' +
            'before every rule of it existed are left out).',
        ),
        chunks: count.describe('Chunks of those documents.'),
        self: count.describe('Chunks with the value from a match inside them.'),
        inherited: count.describe('Chunks carrying the value of a match in an earlier chunk.'),
        document_level: count.describe('Chunks carrying a value a document-level rule of the same field supplied.'),
        empty: count.describe('Chunks without the field: before the first match, or in documents without any.'),
        self_ratio: rate('self / chunks.'),
        inherited_ratio: rate('inherited / chunks.'),
        empty_ratio: rate('empty / chunks.'),
        inherited_share: rate('inherited / (self + inherited): how much of the field rests on inheritance.'),
        rules: z.array(
          z.object({
            rule_id: z.uuid(),
            priority: z.number().int(),
            documents_won: count,
            self: count,
            inherited: count,
          }),
        ),
      }),
    )
    .describe('Fields with at least one chunk-level rule, by name.'),
});

export const emptyMetadataSchema = z.object({
  ...source,
  chunks: count,
  empty_chunks: count.describe(
    "Chunks without any metadata value (neither their own, inherited, nor their document's).",
  ),
  empty_ratio: rate('empty_chunks / chunks.'),
  documents_with_empty_chunks: count,
  documents_all_empty: count.describe('Documents none of whose chunks has metadata.'),
  samples: z
    .array(z.object({ document_id: z.uuid(), path: z.string(), empty_chunks: count, chunks: count }))
    .describe('Documents with the most empty chunks, most first.'),
});

export const rulePriorityAuditSchema = z.object({
  ...source,
  fields: z
    .array(
      z.object({
        field_name: z.string(),
        documents_with_value: count.describe("Documents where one of the field's rules matched."),
        documents_without_value: count.describe('Documents where they all ran without a match (or failed).'),
        equal_priorities: z
          .boolean()
          .describe('Two or more rules share a priority: their order is decided by rule id, which is rarely meant.'),
        rules: z.array(
          z.object({
            ...ruleFields,
            rank: z.number().int().min(1).describe('Position in evaluation order, 1 first.'),
            ...outcomeCounts,
            win_share: rate("matched / documents_with_value: the share of the field's values this rule supplies."),
            chunks_supplied: count.describe("Chunks carrying this rule's value (own or inherited)."),
          }),
        ),
      }),
    )
    .describe('Fields with two or more rules competing, by name; their rules in evaluation order.'),
});

export type ChunkSizeDistribution = z.output<typeof chunkSizeDistributionSchema>;
export type ChunksPerDocument = z.output<typeof chunksPerDocumentSchema>;
export type MetadataHitRate = z.output<typeof metadataHitRateSchema>;
export type MetadataCoverage = z.output<typeof metadataCoverageSchema>;
export type InheritanceRatio = z.output<typeof inheritanceRatioSchema>;
export type EmptyMetadata = z.output<typeof emptyMetadataSchema>;
export type RulePriorityAudit = z.output<typeof rulePriorityAuditSchema>;

export const feedbackPeriods = ['day', 'week', 'month'] as const;

export const feedbackReportRequestSchema = z.object({
  period: z.enum(feedbackPeriods).default('day').describe('The length of one period; periods start at UTC midnight.'),
  days: z.coerce.number().int().min(1).max(366).default(30).describe('How far back to count, in days.'),
  limit: z.coerce.number().int().min(0).max(100).default(10).describe('How many of the latest down-rated turns.'),
});

export const feedbackReportSchema = z.object({
  period: z.enum(feedbackPeriods),
  days: count,
  totals: z.object({ up: count, down: count }).describe('Over every period listed.'),
  periods: z
    .array(
      z.object({
        start: z.string().describe('The first day of the period, YYYY-MM-DD (UTC).'),
        up: count,
        down: count,
      }),
    )
    .describe('Oldest first, empty periods included. A turn counts once, in the period it was last rated.'),
  latest_down: z
    .array(
      z.object({
        conversation_id: z.uuid(),
        turn_index: count.describe('The turn within its conversation, 0-based, as the conversation shows it.'),
        rated_at: z.string(),
        comment: z.string().nullable(),
        query: z.string(),
        answer_excerpt: z.string().describe('The answer, cut after 300 characters.'),
        sources: z.array(z.object({ index: count, document_id: z.string(), title: z.string(), path: z.string() })),
      }),
    )
    .describe('The most recently down-rated answers, newest first.'),
});

export type FeedbackReportRequest = z.output<typeof feedbackReportRequestSchema>;
export type FeedbackReport = z.output<typeof feedbackReportSchema>;
