import type { Plan } from './license-gate.js';

export interface ExtractedBlock {
  kind: 'heading' | 'paragraph' | 'table_row' | 'page_break';
  text: string;
  /** Heading level (1 is the top) for headings. */
  level?: number;
  page?: number;
}

export interface ExtractedDocument {
  title?: string;
  blocks: ExtractedBlock[];
  metadata: Record<string, string>;
}

export interface ExtractorInput {
  /** Path of the stored bytes on local disk. */
  path: string;
  filename: string;
  mediaType: string;
  options: { ocr: boolean; ocrLanguages: string[]; tables: boolean };
}

export interface ExtractorProvider {
  /**
   * URL of a module exporting `extract(input: ExtractorInput): Promise<ExtractedDocument>`, the same
   * work as `extract` below. The ingestion pipeline imports it in its extraction worker threads
   * (INDEX_EXTRACTION_WORKERS), so a slow or crashing parser never blocks or takes down the server.
   */
  readonly workerModule: string;
  readonly mediaTypes: readonly string[];
  readonly extensions: readonly string[];
  /** The lowest plan allowed to index this file type; absent means every plan. */
  readonly requiredPlan?: Plan;
  readonly capabilities: { tables: boolean; ocr: boolean };
  /**
   * Called in the main thread before the pipeline hands this extractor's work to a worker thread,
   * for native libraries the main thread must hold while worker threads use them (sharp's libvips:
   * with glibc, a worker that exits would otherwise unload it under the threads still using it).
   * Loading them here instead of when the plugin loads spares servers that never get such a file.
   */
  prepareMainThread?(): Promise<void>;
  /** In-process extraction (tests, tools); the pipeline prefers `workerModule`. */
  extract(input: ExtractorInput, signal: AbortSignal): Promise<ExtractedDocument>;
}
