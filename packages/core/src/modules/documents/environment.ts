import type {
  ExtractorProvider,
  Db,
  JobsService,
  Logger,
  SettingsService,
  VectorStoreProvider,
} from '@docqa/plugin-api';
import type { LicenseService } from '../license/contract.js';

/** The configuration indexing reads, typed once when the module starts. */
export interface IndexingConfig {
  INDEX_EXTRACTION_WORKERS: number;
  INDEX_EXTRACTION_WORKER_HEAP_MB: number;
  INDEX_EXTRACTION_TIMEOUT_SECONDS: number;
  INDEX_UPSERT_BATCH_SIZE: number;
  INDEX_LANGUAGES: readonly string[];
  INDEXING_OCR_ENABLED: boolean;
  INDEXING_OCR_LANGUAGES: string[];
  INDEXING_TABLES_ENABLED: boolean;
}

/** What the documents module's services work with: its dependencies, resolved once. */
export interface DocumentsEnvironment {
  db: Db;
  jobs: JobsService;
  settings: SettingsService;
  logger: Logger;
  /** Where the blob store keeps the documents' bytes (DOCQA_DATA_DIR). */
  dataDir: string;
  config: IndexingConfig;
  extractors: readonly ExtractorProvider[];
  /** Absent in an edition without vectors: documents are then found by their words alone. */
  vectorStore: VectorStoreProvider | undefined;
  license: LicenseService;
}
