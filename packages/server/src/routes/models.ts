import { z } from 'zod';
import { providerTokens } from '@docqa/plugin-api';
import type { Kernel } from '@docqa/kernel';
import { defineRoute } from '../http/route.js';
import { modelsTokens, type CurrentModels, type ModelRuntime } from '@docqa/core/models';
import { classifierLlmStatus } from '@docqa/core/chat';
import { readHardware } from '../system/hardware.js';

/** The file fields are there for a local GGUF embedder (the configured one or one chosen with docqa models use). */
const embeddingSchema = z.object({
  model: z.string(),
  dimensions: z.number().int(),
  source: z.enum(['switched', 'configured']).optional(),
  file: z.string().optional(),
  size_bytes: z.number().int().optional(),
  quantization: z.string().optional(),
  context_length: z.number().int().optional(),
  license: z.string().optional(),
  gpu: z.boolean().optional().describe('The local embedding model computes on a GPU (see device).'),
  device: z
    .string()
    .optional()
    .describe(
      'Where a local embedding model computes: cpu, cuda, vulkan or metal, as ' +
        'EMBED_DEVICE (auto, cpu, cuda) chose; absent for an embeddings API.',
    ),
});

const modelInfoSchema = z.object({
  backend: z
    .string()
    .describe(
      'local (a GGUF model in process, or the inference server at INFERENCE_URL, then with ' +
        '`endpoint`), hosted, extractive (no language model: answers quote the best-matching ' +
        'passages), or none (an edition without a chat backend: chat answers 503).',
    ),
  configured_backend: z.enum(['local', 'hosted']).describe('LLM_BACKEND.'),
  model: z.string(),
  generative: z.boolean().describe('false for the extractive backend.'),
  streaming: z.boolean(),
  exact_token_count: z
    .boolean()
    .describe("The token budget counts with the model's own tokenizer; otherwise it estimates."),
  context_length: z
    .number()
    .int()
    .nullable()
    .describe(
      "The model's own limit, when known: a GGUF file's training context, what the " +
        'inference server reports (GET /props), or what a hosted API publishes.',
    ),
  n_ctx: z.number().int().describe('N_CTX, as requested.'),
  effective_n_ctx: z.number().int().describe('EFFECTIVE_N_CTX: the context window in effect.'),
  gpu: z.boolean(),
  file: z.string().optional(),
  size_bytes: z.number().int().optional(),
  quantization: z.string().optional(),
  license: z.string().optional(),
  endpoint: z.string().optional().describe('Where a hosted model or the inference server is reached.'),
  switched: z
    .boolean()
    .optional()
    .describe(
      'true: the chat model was chosen with docqa models use (POST /api/models/use) rather than by LLM_MODEL_PATH.',
    ),
  embedding: embeddingSchema
    .nullable()
    .describe('The embedding model of dense retrieval; null: lexical retrieval only.'),
  classifier_llm: z
    .object({
      enabled: z.boolean().describe('RAG_CLASSIFIER_LLM_ENABLED.'),
      active: z.boolean().describe('Ambiguous queries are put to the chat model in use.'),
      note: z.string().optional().describe('Why an enabled setting has no effect (the extractive backend).'),
    })
    .describe('Whether RAG_CLASSIFIER_LLM_ENABLED has an effect with the chat backend in use.'),
  note: z.string().optional(),
});

const hardwareSchema = z.object({
  cpu: z.object({
    model: z.string(),
    cores: z.number().int(),
    architecture: z.string(),
    load_average: z.array(z.number()),
  }),
  memory: z.object({
    total_bytes: z.number().int(),
    available_bytes: z.number().int(),
    process_rss_bytes: z.number().int(),
  }),
  gpus: z.array(z.object({ vendor: z.literal('nvidia'), name: z.string(), bus_id: z.string().nullable() })),
  cuda_available: z.boolean(),
  platform: z.string(),
  node_version: z.string(),
});

export const modelRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/model-info',
    access: 'required',
    tag: 'System',
    operationId: 'getModelInfo',
    summary: 'The chat model in use, its context window, and the embedding model',
    description: 'Answers at once from what was loaded at start-up: a hosted backend is not called.',
    responses: { 200: { description: 'Model information.', schema: modelInfoSchema } },
    deps: { models: modelsTokens.current, runtime: modelsTokens.runtime },
    async handler({ kernel, deps }) {
      const embedding = await describeEmbedding(deps.models, deps.runtime);
      // A model chosen with `docqa models use` wins over the configured one, as in chat.
      const switched = deps.models.switchedChatBackend();
      if (!switched && !kernel.container.has(providerTokens.llm))
        return { status: 200, body: withoutBackend(kernel, embedding) };
      const backend = switched ?? kernel.resolve(providerTokens.llm);
      const {
        backend: name,
        model,
        contextLength,
        gpu,
        file,
        sizeBytes,
        quantization,
        endpoint,
        ...info
      } = await backend.info();
      const license = info.license ?? (await deps.runtime.details('chat'))?.license ?? undefined;
      const body = {
        backend: name,
        configured_backend: kernel.config.values.LLM_BACKEND,
        model,
        generative: backend.capabilities.generative,
        streaming: backend.capabilities.streaming,
        exact_token_count: backend.capabilities.tokenizer,
        context_length: contextLength,
        n_ctx: kernel.config.values.N_CTX,
        effective_n_ctx: kernel.effectiveNCtx,
        gpu,
        ...(file === undefined ? {} : { file }),
        ...(sizeBytes === undefined ? {} : { size_bytes: sizeBytes }),
        ...(quantization === undefined ? {} : { quantization }),
        ...(license === undefined ? {} : { license }),
        ...(endpoint === undefined ? {} : { endpoint }),
        switched: switched !== null,
        embedding,
        classifier_llm: classifierLlmStatus(kernel.config.values.RAG_CLASSIFIER_LLM_ENABLED, backend),
        ...(backend.capabilities.generative
          ? {}
          : {
              note:
                'No chat model is in use (docqa models pull and use, LLM_MODEL_PATH, or ' +
                'LLM_BACKEND=hosted): answers quote the best-matching passages of the documents.',
            }),
      };
      return { status: 200, body };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/hardware',
    access: 'required',
    tag: 'System',
    operationId: 'getHardware',
    summary: 'CPU, memory and GPU of the machine DocQA runs on',
    responses: { 200: { description: 'Hardware information.', schema: hardwareSchema } },
    handler: async () => ({ status: 200, body: await readHardware() }),
  }),
];

/** An edition built without any chat backend still describes itself; chat answers 503 there. */
function withoutBackend(kernel: Kernel, embedder: z.infer<typeof embeddingSchema> | null) {
  return {
    backend: 'none',
    configured_backend: kernel.config.values.LLM_BACKEND,
    model: 'none',
    generative: false,
    streaming: false,
    exact_token_count: false,
    context_length: null,
    n_ctx: kernel.config.values.N_CTX,
    effective_n_ctx: kernel.effectiveNCtx,
    gpu: false,
    embedding: embedder,
    classifier_llm: classifierLlmStatus(kernel.config.values.RAG_CLASSIFIER_LLM_ENABLED, null),
    note: 'This edition has no chat backend plugin: chat is unavailable.',
  };
}

/** The embedder in effect, with its file's details when it is a local GGUF model DocQA knows the path of. */
async function describeEmbedding(
  models: CurrentModels,
  runtime: ModelRuntime,
): Promise<z.infer<typeof embeddingSchema> | null> {
  const embedder = models.embedder();
  if (!embedder) return null;
  const details = await runtime.details('embedding');
  const base = {
    model: embedder.space.model,
    dimensions: embedder.space.dimensions,
    ...(embedder.device === undefined ? {} : { device: embedder.device }),
  };
  if (!details) return base;
  const { gguf } = details;
  return {
    ...base,
    source: details.source,
    file: details.file,
    ...(gguf ? { size_bytes: gguf.sizeBytes } : {}),
    ...(gguf?.quantization ? { quantization: gguf.quantization } : {}),
    ...(gguf?.contextLength ? { context_length: gguf.contextLength } : {}),
    ...(details.license ? { license: details.license } : {}),
    gpu: embedder.device !== undefined && embedder.device !== 'cpu',
  };
}
