import { z } from 'zod';

/**
 * No plugin options: extraction runs in the pipeline's worker threads, which see only the
 * ExtractorInput, so OCR is switched and tuned by INDEXING_OCR_ENABLED and INDEXING_OCR_LANGUAGES.
 * Strict so that a misspelt option stops start-up instead of being ignored.
 */
export const imageExtractorOptionsSchema = z.strictObject({});

export type ImageExtractorOptions = z.output<typeof imageExtractorOptionsSchema>;
