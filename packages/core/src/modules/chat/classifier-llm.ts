import type { LlmBackend } from '@docqa/plugin-api';

/** Whether RAG_CLASSIFIER_LLM_ENABLED has an effect with the chat backend in use, for the log and /api/model-info. */
export interface ClassifierLlmStatus {
  /** RAG_CLASSIFIER_LLM_ENABLED. */
  enabled: boolean;
  /** Ambiguous queries are put to the chat model now. */
  active: boolean;
  /** Why an enabled setting has no effect. */
  note?: string;
}

/**
 * The classifier asks the chat model in use (spec: "the local inference server"; also a GGUF model
 * in process or a hosted API). The extractive backend has no language model, so the setting then
 * has no effect: ambiguities are settled by rule priority, and DocQA says so rather than staying quiet.
 */
export function classifierLlmStatus(enabled: boolean, backend: LlmBackend | null): ClassifierLlmStatus {
  if (!enabled) return { enabled, active: false };
  if (backend?.capabilities.generative) return { enabled, active: true };
  return {
    enabled,
    active: false,
    note:
      'RAG_CLASSIFIER_LLM_ENABLED has no effect: the chat backend has no language model (extractive answers), ' +
      'so ambiguous queries are settled by rule priority. It applies once a chat model is in use ' +
      '(LLM_MODEL_PATH, INFERENCE_URL, docqa models use, or LLM_BACKEND=hosted).',
  };
}
