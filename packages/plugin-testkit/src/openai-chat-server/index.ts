export { startChatCompletionsServer } from './server.js';
export { chatAnswerFor, answerPieces } from './answer.js';
export type {
  ChatCompletionsServer,
  ChatCompletionsServerOptions,
  ChatServerError,
  ReceivedChatRequest,
  LlamaCppServerModel,
} from './types.js';
