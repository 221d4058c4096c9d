import type { Plan } from './license-gate.js';

export interface ExtractedBlock {
  kind: 'heading' | 'paragraph' | 'table_row' | 'page_break';
  text: string;
  /** Heading level (1 is the top) for headings. */
  level?: number;
  page?: number;
  /**
   * Spreadsheets: the 1-based row of the sheet (xlsx) or record of the file (CSV, the header is 1)
   * the block was made from, so citations can point at it.
   */
  row?: number;
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
   * URL of a module exporting `extract(input: ExtractorInput, signal?, options?): Promise<ExtractedDocument>`,
   * the same work as `extract` below. The ingestion pipeline imports it in its extraction worker threads
   * (INDEX_EXTRACTION_WORKERS), so a slow or crashing parser never blocks or takes down the server.
   * Made with `workerModuleUrl`, it carries the plugin's options (limits) to the worker as `options`.
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

/**
 * The `workerModule` URL of an extractor whose worker-side `extract` needs the plugin's options (its
 * limits): they travel as JSON in the query, because the pipeline hands worker threads nothing but
 * this URL and the ExtractorInput. The extraction worker splits them off (`splitWorkerModule`) and
 * passes them as `extract`'s third argument. Query strings, not import.meta.url, because tsx (tests)
 * drops a module URL's query.
 */
export function workerModuleUrl(moduleUrl: URL, options: object): string {
  const url = new URL(moduleUrl);
  url.searchParams.set('options', JSON.stringify(options));
  return url.href;
}

/** A workerModule URL without its options, and the options (undefined when it has none). */
export function splitWorkerModule(workerModule: string): { moduleUrl: string; options: unknown } {
  const url = new URL(workerModule);
  const raw = url.searchParams.get('options');
  url.searchParams.delete('options');
  return { moduleUrl: url.href, options: raw === null ? undefined : (JSON.parse(raw) as unknown) };
}
