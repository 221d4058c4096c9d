import { z } from 'zod';
import { defineRoute } from '../http/route.js';
import {
  chunkSizeDistributionSchema,
  chunksPerDocumentSchema,
  emptyMetadataSchema,
  inheritanceRatioSchema,
  metadataCoverageSchema,
  metadataHitRateSchema,
  rulePriorityAuditSchema,
  feedbackReportRequestSchema,
  feedbackReportSchema,
  analyticsTokens,
  uploadsSourceId,
} from '@docqa/core/analytics';
import { groupsTokens } from '@docqa/core/groups';

const params = z.object({
  source_id: z
    .union([z.literal(uploadsSourceId), z.uuid()])
    .describe('A connector or integration id, or `uploads` for the uploaded documents (which have no rules).'),
});

type Method =
  | 'chunkSizeDistribution'
  | 'metadataHitRate'
  | 'metadataCoverage'
  | 'chunksPerDocument'
  | 'inheritanceRatio'
  | 'emptyMetadata'
  | 'rulePriorityAudit';

const endpoints: Array<{ suffix: string; method: Method; summary: string; description: string; schema: z.ZodType }> = [
  {
    suffix: 'chunk-size-distribution',
    method: 'chunkSizeDistribution',
    schema: chunkSizeDistributionSchema,
    summary: 'Histogram of chunk lengths with summary statistics',
    description:
      "Character lengths of the chunks of the source's indexed documents: count, min, max, mean, median and 90th " +
      'percentile, a histogram with fixed edges, and how many chunks are shorter than RAG_MIN_CHUNK_LENGTH.',
  },
  {
    suffix: 'metadata-hit-rate',
    method: 'metadataHitRate',
    schema: metadataHitRateSchema,
    summary: 'Per-rule match rate across documents and chunks',
    description:
      'For every rule, in evaluation order: documents where it matched, ran without a match, was ' +
      'shadowed by a rule earlier in priority order, or failed; chunks with its value by their own ' +
      'match or by inheritance; and the rates. Outcomes are recorded at indexing and by a metadata ' +
      'refresh; `not_applied` and `stale` say when a refresh is due.',
  },
  {
    suffix: 'metadata-coverage',
    method: 'metadataCoverage',
    schema: metadataCoverageSchema,
    summary: 'Per-field metadata coverage ratio',
    description:
      'For every field a rule of the source produces (even one that never matched), and every ' +
      'other field on its documents: documents and chunks with a value, and their share of the ' +
      'source. Rule fields are counted from the recorded rule outcomes.',
  },
  {
    suffix: 'chunks-per-document',
    method: 'chunksPerDocument',
    schema: chunksPerDocumentSchema,
    summary: 'Chunks per document with summary statistics',
    description:
      "Summary statistics and a histogram of the chunk count of the source's " +
      'indexed documents, and the ten largest documents.',
  },
  {
    suffix: 'inheritance-ratio',
    method: 'inheritanceRatio',
    schema: inheritanceRatioSchema,
    summary: 'Self-matched vs inherited vs empty chunks for chunk-level rules',
    description:
      'For every field with a chunk-level rule: chunks whose value comes from a match inside ' +
      'them, chunks that inherited it from an earlier chunk, chunks with a document-level ' +
      'value of the field, and chunks without it; per rule too.',
  },
  {
    suffix: 'empty-metadata',
    method: 'emptyMetadata',
    schema: emptyMetadataSchema,
    summary: 'Chunks with no metadata, and sample documents',
    description:
      'Chunks that no rule gave any value, the documents they belong to, and up ' +
      'to ten of those documents, most empty chunks first.',
  },
  {
    suffix: 'rule-priority-audit',
    method: 'rulePriorityAudit',
    schema: rulePriorityAuditSchema,
    summary: 'Winner counts of rules competing for a field',
    description:
      'For every field with two or more rules: the rules in evaluation order (priority, then id) ' +
      'with the documents each supplied the field for, ran without a match, or never ran because ' +
      'an earlier rule had won; and whether priorities tie.',
  },
];

/** Spec 4.7: PRO or higher, any signed-in user; the documents counted are those the caller may see. */
export const analyticsRoutes = endpoints.map((endpoint) =>
  defineRoute({
    method: 'get',
    path: `/api/analytics/{source_id}/${endpoint.suffix}`,
    access: 'required',
    plan: 'PRO',
    tag: 'Analytics',
    operationId: endpoint.method,
    summary: endpoint.summary,
    description: endpoint.description,
    request: { params },
    responses: { 200: { description: endpoint.summary, schema: endpoint.schema } },
    deps: { analytics: analyticsTokens.service, groups: groupsTokens.service },
    async handler({ deps, params, principal }) {
      const scope = await deps.groups.scopeFor(principal!);
      const caller = { visibleToGroups: scope.all ? null : scope.groupIds };
      return { status: 200, body: await deps.analytics[endpoint.method](params.source_id, caller) };
    },
  }),
);

/** Users' ratings of chat answers: every user's conversations, so admins only (and PRO, as all analytics). */
export const feedbackReportRoute = defineRoute({
  method: 'get',
  path: '/api/analytics/feedback',
  access: 'admin',
  plan: 'PRO',
  tag: 'Analytics',
  operationId: 'feedbackReport',
  summary: 'Thumbs up and down on chat answers per period, and the latest down-rated answers',
  description: [
    'Counts of up and down ratings per day, week or month over the last `days` days (a turn counts once, in the',
    'period it was last rated), and the latest down-rated turns with their question, the start of the answer,',
    'the sources and the comment. Ratings are set with PUT /api/conversations/{id}/turns/{index}/feedback.',
  ].join(' '),
  request: { query: feedbackReportRequestSchema },
  responses: { 200: { description: 'The feedback report.', schema: feedbackReportSchema } },
  deps: { analytics: analyticsTokens.service },
  async handler({ deps, query }) {
    return { status: 200, body: await deps.analytics.feedback(query) };
  },
});
