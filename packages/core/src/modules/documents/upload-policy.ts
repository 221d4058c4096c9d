import path from 'node:path';
import { DocqaError, planAtLeast, type ExtractorProvider, type PlanLimits } from '@docqa/plugin-api';
import type { LicenseService } from '../license/contract.js';

/** The plan, its limits, and the extractors: what decides whether a file may be stored at all. */
export class UploadPolicy {
  constructor(
    private readonly license: LicenseService,
    private readonly extractors: readonly ExtractorProvider[],
  ) {}

  limits(): PlanLimits {
    return this.license.limits();
  }

  /**
   * The extractor for a file, by its extension or else the media type a source announced; refused
   * (415, or 403 by plan) before a byte is read.
   */
  extractorFor(filename: string, mediaType?: string): ExtractorProvider {
    const extension = path.extname(filename).toLowerCase();
    const extractors = this.extractors;
    const baseType = mediaType?.split(';')[0]?.trim().toLowerCase();
    const extractor =
      extractors.find((candidate) => candidate.extensions.includes(extension)) ??
      (baseType ? extractors.find((candidate) => candidate.mediaTypes.includes(baseType)) : undefined);
    if (!extractor) {
      const known = [...new Set(this.extractors.flatMap((candidate) => candidate.extensions))].sort();
      throw new DocqaError(
        'unsupported_media_type',
        `${filename}: files of type "${extension || '(none)'}" cannot be ` +
          `indexed${known.length ? `; supported: ${known.join(', ')}` : '; no extractor is configured'}.`,
      );
    }
    const plan = this.license.plan();
    if (extractor.requiredPlan && !planAtLeast(plan, extractor.requiredPlan)) {
      throw new DocqaError(
        'plan_required',
        `${filename}: ${extension} files need the ${extractor.requiredPlan} ` +
          `plan or higher; this installation runs ${plan}.`,
        { extra: { required_plan: extractor.requiredPlan } },
      );
    }
    return extractor;
  }

  refuseTooLarge(filename: string, limits: PlanLimits): never {
    throw new DocqaError(
      'file_too_large',
      `${filename} is larger than the ${formatBytes(limits.fileSizeBytes ?? 0)} a file may have on this plan.`,
      { extra: { limit: limits.fileSizeBytes } },
    );
  }
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}
