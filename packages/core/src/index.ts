export { chunkDocument, type Chunk, type ChunkingOptions } from './chunking/chunk-document.js';
export { documentText } from './chunking/document-text.js';
export { documentLayout, type TextLayout } from './chunking/layout.js';
export { estimateTokens } from './chunking/text-spans.js';
export { translatePythonRegex, countCaptureGroups, type TranslatedRegex } from './rules/python-regex.js';
export {
  metadataRuleSchema,
  validateRule,
  parseRule,
  type MetadataRule,
  type MetadataRuleFields,
  type MetadataRuleInput,
} from './rules/rule-schema.js';
export {
  applyRules,
  classifyQuery,
  describeRuleFailures,
  ruleBudgetMs,
  sortRules,
  type ApplyRulesOptions,
  type ChunkValues,
  type RuleApplication,
  type RuleFailure,
  type RuleTarget,
} from './rules/apply-rules.js';
export { RuleRunner, type MatchOutcome, type RuleBudget } from './rules/rule-runner.js';
export {
  defaultExtractionHeapLimitMb,
  ExtractionPool,
  type ExtractionPoolOptions,
} from './extraction/extraction-pool.js';
export {
  analyze,
  analyzeChunk,
  analyzeQuery,
  analyzerVersion,
  tokenizeWords,
  type ChunkAnalysis,
  analyzeEnglish,
  termFrequencies,
  englishStopWords,
} from './lexical/analyzer.js';
export { LanguageDetector } from './lexical/language-detection.js';
export { languagesWithRules } from './lexical/languages.js';
export { embeddingThreads, inferenceThreads } from './inference-threads.js';
