import type { Db, SettingsService } from '@docqa/plugin-api';
import { feedbackReport } from './feedback-stats.js';
import { chunkSizeDistribution, chunksPerDocument, emptyMetadata } from './index-stats.js';
import { inheritanceRatio, metadataCoverage, metadataHitRate, rulePriorityAudit } from './rule-stats.js';
import { resolveScope, type SourceScope } from './scope.js';
import type { AnalyticsCaller, AnalyticsService, FeedbackReportRequest } from './contract.js';

/**
 * The analytics of spec 4.7 for one connector or integration (or `uploads`). Each answer is computed
 * in the database at request time, so it is exact at that moment; nothing is cached.
 */
export class DatabaseAnalytics implements AnalyticsService {
  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
  ) {}

  async #scope(sourceId: string, caller: AnalyticsCaller): Promise<SourceScope> {
    return resolveScope(this.db, sourceId, caller.visibleToGroups);
  }

  async chunkSizeDistribution(sourceId: string, caller: AnalyticsCaller) {
    const minChunkLength = Number(this.settings.get('RAG_MIN_CHUNK_LENGTH'));
    return chunkSizeDistribution(this.db, await this.#scope(sourceId, caller), minChunkLength);
  }

  async chunksPerDocument(sourceId: string, caller: AnalyticsCaller) {
    return chunksPerDocument(this.db, await this.#scope(sourceId, caller));
  }

  async metadataHitRate(sourceId: string, caller: AnalyticsCaller) {
    return metadataHitRate(this.db, await this.#scope(sourceId, caller));
  }

  async metadataCoverage(sourceId: string, caller: AnalyticsCaller) {
    return metadataCoverage(this.db, await this.#scope(sourceId, caller));
  }

  async inheritanceRatio(sourceId: string, caller: AnalyticsCaller) {
    return inheritanceRatio(this.db, await this.#scope(sourceId, caller));
  }

  async emptyMetadata(sourceId: string, caller: AnalyticsCaller) {
    return emptyMetadata(this.db, await this.#scope(sourceId, caller));
  }

  async rulePriorityAudit(sourceId: string, caller: AnalyticsCaller) {
    return rulePriorityAudit(this.db, await this.#scope(sourceId, caller));
  }

  async feedback(request: FeedbackReportRequest) {
    return feedbackReport(this.db, request);
  }
}
