import { z } from 'zod';
import { DocqaError } from '@docqa/plugin-api';
import { defineRoute } from '../http/route.js';
import {
  modelPullQueue,
  modelsTokens,
  type InstalledModel,
  type ModelDetails,
  type ModelPullJobData,
} from '@docqa/core/models';
import { identityTokens } from '@docqa/core/identity';
import { documentsTokens } from '@docqa/core/documents';

/** What `use` switches: reranking models are chosen with RAG_RERANK_MODEL instead. */
const purpose = z.enum(['chat', 'embedding']);
const modelPurpose = z
  .enum(['chat', 'embedding', 'reranking'])
  .describe('reranking: a cross-encoder for RAG_RERANK_MODEL, never switched in with POST /api/models/use.');

const installedSchema = z.object({
  name: z.string(),
  file: z.string(),
  purpose: modelPurpose,
  size_bytes: z.number().int(),
  architecture: z.string(),
  quantization: z.string().nullable(),
  context_length: z.number().int().nullable(),
  embedding_length: z.number().int().nullable(),
  license: z.string().nullable(),
  from_catalogue: z.boolean(),
});

const activeSchema = z
  .object({
    source: z.enum(['switched', 'configured']),
    name: z.string(),
    file: z.string(),
    quantization: z.string().nullable(),
    context_length: z.number().int().nullable(),
    license: z.string().nullable(),
  })
  .nullable();

const indexSchema = z.object({
  chunks: z.number().int(),
  embedded_chunks: z.number().int(),
  stale: z
    .boolean()
    .describe(
      'Chunks lack a vector of the embedding model in use (after a switch): POST /api/index/rebuild re-embeds them.',
    ),
  embedding_space: z.object({ model: z.string(), dimensions: z.number().int() }).nullable(),
});

const modelsSchema = z.object({
  models_dir: z.string(),
  catalogue: z.string().describe('The catalogue file (MODELS_CATALOGUE, or the one shipped with DocQA).'),
  available: z.array(
    z.object({
      name: z.string(),
      purpose: modelPurpose,
      tier: z.string().nullable(),
      recommended: z.boolean(),
      description: z.string(),
      size: z.string().nullable(),
      size_bytes: z.number().int().nullable(),
      quantization: z.string().nullable(),
      context_length: z.number().int().nullable(),
      dimensions: z.number().int().nullable(),
      license: z.string().nullable(),
      source: z.string(),
      sha256: z.string().nullable(),
      verified: z.boolean().describe('Every field was checked against the public model pages; `note` says how.'),
      note: z.string().nullable(),
      installed: z.boolean(),
    }),
  ),
  installed: z.array(installedSchema),
  active: z.object({ chat: activeSchema, embedding: activeSchema }),
  index: indexSchema,
});

function presentInstalled(model: InstalledModel) {
  const { gguf } = model;
  return {
    name: model.name,
    file: gguf.file,
    purpose: model.purpose,
    size_bytes: gguf.sizeBytes,
    architecture: gguf.architecture,
    quantization: gguf.quantization,
    context_length: gguf.contextLength,
    embedding_length: gguf.embeddingLength,
    license: model.license,
    from_catalogue: model.catalogue !== null,
  };
}

function presentActive(details: ModelDetails | null) {
  if (!details) return null;
  return {
    source: details.source,
    name: details.name,
    file: details.file,
    quantization: details.gguf?.quantization ?? null,
    context_length: details.gguf?.contextLength ?? null,
    license: details.license,
  };
}

/** Administration of local GGUF models: what is available and installed, pulls as jobs, and switching. */
export const modelAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/models',
    access: 'admin',
    tag: 'Models',
    operationId: 'listModels',
    summary: 'Catalogue, installed models, the models in use, and whether the index matches them',
    responses: { 200: { description: 'Models.', schema: modelsSchema } },
    deps: { runtime: modelsTokens.runtime, indexStatus: modelsTokens.indexStatus },
    async handler({ deps }) {
      const { runtime } = deps;
      const { store } = runtime;
      const installed = await store.list();
      const files = new Set(installed.map((model) => model.gguf.file));
      const body = {
        models_dir: store.dir,
        catalogue: store.catalogue.path,
        available: store.catalogue.entries.map((entry) => ({
          name: entry.name,
          purpose: entry.purpose,
          tier: entry.tier ?? null,
          recommended: entry.recommended,
          description: entry.description,
          size: entry.size ?? null,
          size_bytes: entry.size_bytes ?? null,
          quantization: entry.quantization ?? null,
          context_length: entry.context_length ?? null,
          dimensions: entry.dimensions ?? null,
          license: entry.license ?? null,
          source: entry.source,
          sha256: entry.sha256 ?? null,
          verified: entry.verified,
          note: entry.note ?? null,
          installed: files.has(entry.file),
        })),
        installed: installed.map(presentInstalled),
        active: {
          chat: presentActive(await runtime.details('chat')),
          embedding: presentActive(await runtime.details('embedding')),
        },
        index: await deps.indexStatus.read(),
      };
      return { status: 200, body };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/models/pull',
    access: 'admin',
    tag: 'Models',
    operationId: 'pullModel',
    summary: 'Download a catalogue model into MODELS_DIR as a cancellable job',
    description:
      'The job (kind model_pull in GET /api/jobs) reports progress in KiB and an ETA; POST ' +
      '/api/jobs/{id}/cancel stops it and keeps the partial file, so pulling again resumes. ' +
      'The file is checked (size and SHA-256 when the catalogue has them, GGUF header) before it appears in ' +
      'MODELS_DIR. The job runs on a worker replica: share MODELS_DIR between replicas.',
    request: { body: z.object({ name: z.string().min(1).max(200) }) },
    responses: { 202: { description: 'The pull job.', schema: z.object({ job_id: z.uuid(), name: z.string() }) } },
    deps: { runtime: modelsTokens.runtime, identity: identityTokens.service },
    async handler({ kernel, deps, body, principal, req }) {
      const { store } = deps.runtime;
      const entry = store.entry(body.name);
      if (await store.find(entry.name)) throw new DocqaError('conflict', `${entry.name} is installed already.`);
      const data: ModelPullJobData = { name: entry.name, requestedBy: principal!.userId };
      const jobId = await kernel.jobs.send(modelPullQueue, data, { singletonKey: `model_pull:${entry.name}` });
      await deps.identity.recordConfigUpdate(principal, req.ip, 'models.pull', { name: entry.name, job_id: jobId });
      return { status: 202, body: { job_id: jobId, name: entry.name } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/models/use',
    access: 'admin',
    tag: 'Models',
    operationId: 'useModel',
    summary: 'Switch the chat or embedding model without a restart',
    description:
      'Loads the installed model on this replica first (a model that cannot load changes nothing), stores the ' +
      'choice in the database, and answers; the other replicas load it within a few seconds. ' +
      'The purpose comes from the model. `name: null` with a `purpose` returns to the ' +
      'configured model (LLM_MODEL_PATH, EMBEDDING_MODEL_PATH). ' +
      'A new embedding model leaves the index stale (vectors of two models are never compared): ' +
      '`reembed: true` starts the rebuild job that re-embeds every document.',
    request: {
      body: z.object({
        name: z.string().min(1).max(200).nullable(),
        purpose: purpose.optional(),
        reembed: z.boolean().default(false),
      }),
    },
    responses: {
      200: {
        description: 'The model now in use.',
        schema: z.object({
          purpose,
          name: z.string().nullable(),
          previous: z.string().nullable(),
          effective_n_ctx: z.number().int(),
          index: indexSchema,
          rebuild_job_id: z.uuid().nullable(),
        }),
      },
    },
    deps: {
      runtime: modelsTokens.runtime,
      indexStatus: modelsTokens.indexStatus,
      identity: identityTokens.service,
      index: documentsTokens.index,
    },
    async handler({ kernel, deps, body, principal, req }) {
      const outcome = await deps.runtime.use(body.name, {
        ...(body.purpose ? { purpose: body.purpose } : {}),
        actor: principal!.username,
      });
      const index = await deps.indexStatus.read();
      // A rebuild already waiting will re-embed with the new model too: no second one is needed.
      const rebuild =
        outcome.purpose === 'embedding' && body.reembed && index.stale
          ? await deps.index
              .startRebuild(principal!.userId)
              .catch((error: unknown) => (DocqaError.is(error, 'conflict') ? null : Promise.reject(error)))
          : null;
      await deps.identity.recordConfigUpdate(principal, req.ip, 'models.use', {
        purpose: outcome.purpose,
        name: outcome.model?.name ?? null,
        previous: outcome.previous,
        rebuild_job_id: rebuild,
      });
      return {
        status: 200,
        body: {
          purpose: outcome.purpose,
          name: outcome.model?.name ?? null,
          previous: outcome.previous,
          effective_n_ctx: kernel.effectiveNCtx,
          index,
          rebuild_job_id: rebuild,
        },
      };
    },
  }),
];
