import { definePreset } from '@docqa/plugin-api';
import emailConsole from '@docqa/plugin-email-console';
import emailSmtp, { smtpOptionsFromVariables } from '@docqa/plugin-email-smtp';
import vectorstorePgvector from '@docqa/plugin-vectorstore-pgvector';
import path from 'node:path';
import connectorFilesystem from '@docqa/plugin-connector-filesystem';
import integrationGit from '@docqa/plugin-integration-git';
import integrationS3 from '@docqa/plugin-integration-s3';
import integrationWeb from '@docqa/plugin-integration-web';
import embedderLlamacpp, { llamaCppEmbedderDeviceFromVariables } from '@docqa/plugin-embedder-llamacpp';
import extractorCsv from '@docqa/plugin-extractor-csv';
import extractorDocx from '@docqa/plugin-extractor-docx';
import extractorHtml from '@docqa/plugin-extractor-html';
import extractorImage from '@docqa/plugin-extractor-image';
import extractorMd from '@docqa/plugin-extractor-md';
import extractorPdf from '@docqa/plugin-extractor-pdf';
import extractorTxt from '@docqa/plugin-extractor-txt';
import extractorXlsx from '@docqa/plugin-extractor-xlsx';
import licenseEd25519 from '@docqa/plugin-license-ed25519';
import llmExtractive from '@docqa/plugin-llm-extractive';
import llmLlamacpp, { llamaCppLlmOptionsFromVariables } from '@docqa/plugin-llm-llamacpp';
import llmOpenai, { llmOpenAiOptionsFromVariables } from '@docqa/plugin-llm-openai';
import rerankerLlamacpp from '@docqa/plugin-reranker-llamacpp';
import { embeddingThreads, inferenceThreads } from '@docqa/core';
import { rerankModelPath } from '@docqa/core/models';

/**
 * The standard self-hosted edition. Plugins of other kinds join this list as they are built;
 * backends chosen by configuration (LLM_BACKEND, EMAIL_PROVIDER) are picked here from the context.
 */
export const standardPreset = definePreset({
  id: 'standard',
  description:
    'Standard self-hosted DocQA: PostgreSQL with pgvector, every extractor, a local embedder when ' +
    'EMBEDDING_MODEL_PATH is set, the chat backend by LLM_BACKEND, the Ed25519 license gate, email by ' +
    'EMAIL_PROVIDER.',
  plugins: ({ variable }) => [
    { plugin: vectorstorePgvector },
    ...[
      extractorTxt,
      extractorMd,
      extractorHtml,
      extractorCsv,
      extractorDocx,
      extractorPdf,
      extractorXlsx,
      extractorImage,
    ].map((plugin) => ({ plugin })),
    // Sync state of sources lives with the rest of DocQA's data, so it survives restarts and backups.
    {
      plugin: connectorFilesystem,
      options: { allowedPaths: variable('CONNECTOR_ALLOWED_PATHS'), stateDir: stateDir(variable, 'filesystem') },
    },
    { plugin: integrationS3, options: { stateDir: stateDir(variable, 's3') } },
    { plugin: integrationWeb, options: { stateDir: stateDir(variable, 'web') } },
    { plugin: integrationGit, options: { stateDir: stateDir(variable, 'git') } },
    ...(variable('EMBEDDING_MODEL_PATH')
      ? [
          {
            plugin: embedderLlamacpp,
            options: {
              modelPath: variable('EMBEDDING_MODEL_PATH'),
              threads: embeddingThreads(variable),
              ...llamaCppEmbedderDeviceFromVariables(variable),
            },
          },
        ]
      : []),
    chatBackend(variable),
    // Off by default: the cross-encoder is a second model in memory and costs time on every search.
    ...(variable('RAG_RERANK_ENABLED') === true ? [reranker(variable)] : []),
    // The plan comes from a signed license key: LICENSE_KEY at start, POST /api/license later; FREE without one.
    {
      plugin: licenseEd25519,
      options: {
        ...(variable('LICENSE_PUBLIC_KEY') ? { publicKey: variable('LICENSE_PUBLIC_KEY') } : {}),
        ...(variable('LICENSE_KEY') ? { initialKey: variable('LICENSE_KEY') } : {}),
      },
    },
    variable('EMAIL_PROVIDER') === 'smtp'
      ? { plugin: emailSmtp, options: smtpOptionsFromVariables(variable) }
      : { plugin: emailConsole },
  ],
});

/**
 * LLM_BACKEND picks the chat model: hosted → an OpenAI-compatible API; local → the GGUF file at
 * LLM_MODEL_PATH, else the inference server at INFERENCE_URL (the compose stack's llama.cpp server),
 * or, with neither, extractive answers quoting the best passages, so a fresh install answers
 * questions before anyone has chosen a model.
 */
export function chatBackend(variable: (name: string) => unknown) {
  // A hosted API is asked once at start whether it publishes its model's context (vLLM, OpenRouter do; OpenAI not).
  if (variable('LLM_BACKEND') === 'hosted')
    return { plugin: llmOpenai, options: { ...llmOpenAiOptionsFromVariables(variable), discoverContext: true } };
  if (variable('LLM_MODEL_PATH'))
    return {
      plugin: llmLlamacpp,
      options: { ...llamaCppLlmOptionsFromVariables(variable), threads: inferenceThreads(variable) },
    };
  if (variable('INFERENCE_URL')) return { plugin: llmOpenai, options: inferenceServerOptions(variable) };
  return { plugin: llmExtractive };
}

/** The cross-encoder RAG_RERANK_MODEL names (a catalogue name or a .gguf file in MODELS_DIR). */
function reranker(variable: (name: string) => unknown) {
  const model = rerankModelPath(variable);
  return {
    plugin: rerankerLlamacpp,
    options: {
      modelPath: model.path,
      modelName: model.name,
      threads: embeddingThreads(variable),
      gpu: variable('EMBED_DEVICE') === 'cpu' ? false : ('auto' as const),
    },
  };
}

/**
 * What llama.cpp's server sends to an OpenAI client that gives no key: it checks one only when started
 * with --api-key, and the OpenAI client refuses to run without one.
 */
export const inferenceServerApiKey = 'no-key';
/** The llama.cpp server answers with the model it loaded, whatever the request names. */
export const inferenceServerModel = 'local';

/** How often the inference server's model and context are read again: it may be restarted with another model. */
export const inferenceServerPollSeconds = 30;

/**
 * llm-openai against the OpenAI-compatible API of the inference server at INFERENCE_URL, named
 * `local` (the spec's bundled inference container). Its context window is what the server reports
 * (GET /props), read at start and every inferenceServerPollSeconds, so EFFECTIVE_N_CTX is N_CTX
 * lowered to it, with a warning, also when the server was started with a smaller --ctx-size.
 */
function inferenceServerOptions(variable: (name: string) => unknown): Record<string, unknown> {
  const origin = String(variable('INFERENCE_URL')).replace(/\/+$/, '');
  return {
    baseUrl: `${origin}/v1`,
    apiKey: inferenceServerApiKey,
    model: inferenceServerModel,
    timeoutSeconds: variable('INFERENCE_TIMEOUT_SECONDS'),
    backend: 'local',
    discoverContext: true,
    contextPollSeconds: inferenceServerPollSeconds,
  };
}

function stateDir(variable: (name: string) => unknown, kind: string): string {
  return path.resolve(String(variable('DOCQA_DATA_DIR')), 'sources', kind);
}

export const presets = { standard: standardPreset };
