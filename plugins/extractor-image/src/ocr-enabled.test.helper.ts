// Test support, not shipped (the package leaves out dist/**/*.test.*).
import type { ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';
import { extract as extractImage } from './extract.js';

/** The input as the pipeline builds it with INDEXING_OCR_ENABLED=true and the default languages. */
export function withOcr(input: ExtractorInput, ocrLanguages: string[] = ['eng']): ExtractorInput {
  return { ...input, options: { ...input.options, ocr: true, ocrLanguages } };
}

/**
 * The worker module the conformance suite loads. The suite extracts with OCR off, as the pipeline
 * does by default, and this extractor then rightly refuses every image; with OCR on it has text to check.
 */
export function extract(input: ExtractorInput): Promise<ExtractedDocument> {
  return extractImage(withOcr(input));
}
