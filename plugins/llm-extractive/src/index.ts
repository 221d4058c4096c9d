import { definePlugin } from '@docqa/plugin-api';
import { createExtractiveLlmBackend } from './backend.js';
import { extractiveLlmOptionsSchema } from './config.js';

export { createExtractiveLlmBackend } from './backend.js';
export { defaultNoAnswerText, extractiveLlmOptionsSchema, type ExtractiveLlmOptions } from './config.js';
export { splitSentences } from './sentences.js';

/**
 * The LLM backend DocQA runs when no chat model is configured (LLM_BACKEND=local without
 * LLM_MODEL_PATH): answers quote the retrieved passages' best-matching sentences, cited.
 */
export default definePlugin({
  apiVersion: 1,
  kind: 'llm',
  id: 'llm-extractive',
  description: 'Answers without a language model: the best-matching sentences of the retrieved passages, cited.',
  configSchema: extractiveLlmOptionsSchema,
  deps: {},
  init({ options }) {
    return createExtractiveLlmBackend(options);
  },
});
