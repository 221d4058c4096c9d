import { createToken } from '@docqa/plugin-api';
import type {
  ChunkSizeDistribution,
  ChunksPerDocument,
  EmptyMetadata,
  FeedbackReport,
  FeedbackReportRequest,
  InheritanceRatio,
  MetadataCoverage,
  MetadataHitRate,
  RulePriorityAudit,
} from './schemas.js';

// What other code may know of the analytics module: its token and service, the response schemas
// the API documents, and what indexing records for it (each rule's outcome per document).

export * from './schemas.js';
export { ruleOutcomes, writeRuleOutcomes, type RuleOutcome, type RuleOutcomeKind } from './outcomes.js';
export { uploadsSourceId } from './scope.js';

/** Who asks: null groups means they see every document (admins, and plans without group access control). */
export interface AnalyticsCaller {
  visibleToGroups: string[] | null;
}

/** The metadata and index analytics of one source (or `uploads`), computed in the database when asked. */
export interface AnalyticsService {
  chunkSizeDistribution(sourceId: string, caller: AnalyticsCaller): Promise<ChunkSizeDistribution>;
  chunksPerDocument(sourceId: string, caller: AnalyticsCaller): Promise<ChunksPerDocument>;
  metadataHitRate(sourceId: string, caller: AnalyticsCaller): Promise<MetadataHitRate>;
  metadataCoverage(sourceId: string, caller: AnalyticsCaller): Promise<MetadataCoverage>;
  inheritanceRatio(sourceId: string, caller: AnalyticsCaller): Promise<InheritanceRatio>;
  emptyMetadata(sourceId: string, caller: AnalyticsCaller): Promise<EmptyMetadata>;
  rulePriorityAudit(sourceId: string, caller: AnalyticsCaller): Promise<RulePriorityAudit>;
  /** Users' thumbs up and down on chat answers, over every conversation: for admins only. */
  feedback(request: FeedbackReportRequest): Promise<FeedbackReport>;
}

export const analyticsTokens = {
  service: createToken<AnalyticsService>('analytics.service'),
};
