import type { Kernel } from '@docqa/kernel';
import { chunkSizeDistribution, chunksPerDocument, emptyMetadata } from './index-stats.js';
import { inheritanceRatio, metadataCoverage, metadataHitRate, rulePriorityAudit } from './rule-stats.js';
import { resolveScope, type SourceScope } from './scope.js';

/** Who asks: null groups means they see every document (admins, and plans without group access control). */
export interface AnalyticsCaller {
  visibleToGroups: string[] | null;
}

/**
 * The analytics of spec 4.7 for one connector or integration (or `uploads`). Each answer is computed
 * in the database at request time, so it is exact at that moment; nothing is cached.
 */
export class AnalyticsService {
  constructor(private readonly kernel: Kernel) {}

  async #scope(sourceId: string, caller: AnalyticsCaller): Promise<SourceScope> {
    return resolveScope(this.kernel.db, sourceId, caller.visibleToGroups);
  }

  async chunkSizeDistribution(sourceId: string, caller: AnalyticsCaller) {
    const minChunkLength = Number(this.kernel.settings.get('RAG_MIN_CHUNK_LENGTH'));
    return chunkSizeDistribution(this.kernel.db, await this.#scope(sourceId, caller), minChunkLength);
  }

  async chunksPerDocument(sourceId: string, caller: AnalyticsCaller) {
    return chunksPerDocument(this.kernel.db, await this.#scope(sourceId, caller));
  }

  async metadataHitRate(sourceId: string, caller: AnalyticsCaller) {
    return metadataHitRate(this.kernel.db, await this.#scope(sourceId, caller));
  }

  async metadataCoverage(sourceId: string, caller: AnalyticsCaller) {
    return metadataCoverage(this.kernel.db, await this.#scope(sourceId, caller));
  }

  async inheritanceRatio(sourceId: string, caller: AnalyticsCaller) {
    return inheritanceRatio(this.kernel.db, await this.#scope(sourceId, caller));
  }

  async emptyMetadata(sourceId: string, caller: AnalyticsCaller) {
    return emptyMetadata(this.kernel.db, await this.#scope(sourceId, caller));
  }

  async rulePriorityAudit(sourceId: string, caller: AnalyticsCaller) {
    return rulePriorityAudit(this.kernel.db, await this.#scope(sourceId, caller));
  }
}
