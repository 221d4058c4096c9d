export {
  startTestKernel,
  createTemporaryDatabase,
  testSecrets,
  type TestKernel,
  type TestKernelOptions,
} from '@docqa/kernel/testing';
export { describeVectorStoreConformance, type VectorStoreConformanceSetup } from './conformance/vector-store.js';
export { describeConnectorConformance, type ConnectorConformanceSetup } from './conformance/connector.js';
export { describeEmailConformance, type EmailConformanceSetup } from './conformance/email.js';
export { describeExtractorConformance, type ExtractorConformanceSetup } from './conformance/extractor.js';
export { writeGguf, writeTinyBertEmbeddingModel, writeTinyBertRerankerModel } from './gguf/index.js';
export { describeEmbedderConformance, type EmbedderConformanceSetup } from './conformance/embedder.js';
export { describeRerankerConformance, type RerankerConformanceSetup } from './conformance/reranker.js';
export { describeLlmConformance, type LlmConformanceSetup } from './conformance/llm.js';
export { writeTinyLlamaChatModel, type TinyLlamaOptions, type TinyLlamaModel } from './gguf/index.js';
export {
  startChatCompletionsServer,
  chatAnswerFor,
  answerPieces,
  type ChatCompletionsServer,
  type ChatCompletionsServerOptions,
  type ChatServerError,
  type ReceivedChatRequest,
  type LlamaCppServerModel,
} from './openai-chat-server/index.js';
export {
  describeLicenseGateConformance,
  type LicenseGateConformanceSetup,
  type LicenseClaimsForTest,
} from './conformance/license-gate.js';
export { startModelFileServer, type ModelFileServer, type ServedRequest } from './gguf/model-file-server.js';
