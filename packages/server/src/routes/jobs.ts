import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';
import { DocqaError, type JobInfo, type JobState } from '@docqa/plugin-api';
import type { Kernel } from '@docqa/kernel';
import { defineRoute } from '../http/route.js';
import { syncQueue, syncTokens } from '@docqa/core/sync';
import { idParams, pageQuery } from './identity-schemas.js';

/** The decisions file's job kinds, and the queue each lives in. */
const kindQueues = {
  scan: 'sync',
  sync: 'sync',
  ingest: 'ingest',
  rebuild: 'rebuild',
  metadata_refresh: 'metadata_refresh',
  retention_sweep: 'retention_sweep',
  model_pull: 'model_pull',
  lexical_reindex: 'lexical_reindex',
} as const;
type JobKind = keyof typeof kindQueues;
const allQueues = [...new Set(Object.values(kindQueues))];

const jobSchema = z.object({
  id: z.uuid(),
  kind: z.enum([
    'scan',
    'sync',
    'sync_all',
    'rebuild',
    'metadata_refresh',
    'ingest',
    'retention_sweep',
    'model_pull',
    'lexical_reindex',
  ]),
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
  source_type: z.enum(['connector', 'integration']).nullable(),
  source_id: z.string().nullable(),
  progress: z.object({ done: z.number().int(), total: z.number().int().nullable() }),
  eta_seconds: z.number().int().nullable().describe('Estimated from the progress so far; null until there is some.'),
  error: z.string().nullable(),
  result: z.unknown().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
nameSchema(jobSchema, 'Job');

function present(job: JobInfo<Record<string, unknown>>) {
  const data = job.data ?? {};
  const kind: JobKind = job.queue === 'sync' ? ((data.kind as JobKind | undefined) ?? 'sync') : (job.queue as JobKind);
  const done = job.progress?.done ?? 0;
  const total = job.progress?.total ?? null;
  let eta: number | null = null;
  if (job.state === 'running' && job.startedAt && total !== null && done > 0 && total >= done) {
    eta = Math.round(((Date.now() - job.startedAt.getTime()) / 1000 / done) * (total - done));
  }
  const output = job.output as { message?: string } | null;
  return {
    id: job.id,
    kind,
    status: job.state,
    source_type: (data.sourceType as 'connector' | 'integration' | undefined) ?? null,
    source_id: (data.sourceId as string | undefined) ?? null,
    progress: { done, total },
    eta_seconds: eta,
    error: job.state === 'failed' ? (output?.message ?? 'failed') : null,
    result: job.state === 'succeeded' ? job.output : null,
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
  };
}

async function findJob(kernel: Kernel, id: string) {
  const job = await kernel.jobs.find<Record<string, unknown>>(allQueues, id);
  if (!job) throw new DocqaError('not_found', `Job ${id} was not found.`);
  return job;
}

/**
 * The job as the API shows it: a finished job's state is kept for JOB_STATE_TTL_SECONDS after it
 * ended (spec), for GET /api/jobs/{id} as for the list; queued and running jobs never expire.
 */
async function shownJob(kernel: Kernel, id: string) {
  const job = await findJob(kernel, id);
  const ttlMs = kernel.config.values.JOB_STATE_TTL_SECONDS * 1000;
  if (job.finishedAt !== null && job.finishedAt.getTime() < Date.now() - ttlMs)
    throw new DocqaError('not_found', `Job ${id} ended more than JOB_STATE_TTL_SECONDS ago; its state has expired.`);
  return job;
}

export const jobRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/jobs',
    access: 'required',
    tag: 'Jobs',
    operationId: 'listJobs',
    summary: 'Background jobs, newest first',
    description:
      'Queued and running jobs, and finished ones (succeeded, failed, cancelled) for ' +
      'JOB_STATE_TTL_SECONDS after they ended (default one day). ' +
      'Older finished jobs are left out of this list but kept as history: GET /api/jobs/{id} answers them ' +
      'until the daily retention sweep deletes them after JOB_HISTORY_RETENTION_DAYS.',
    request: {
      query: pageQuery.extend({
        kind: z
          .enum(['scan', 'sync', 'ingest', 'rebuild', 'metadata_refresh', 'retention_sweep', 'model_pull'])
          .optional(),
        status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']).optional(),
        source_id: z.uuid().optional(),
      }),
    },
    responses: {
      200: {
        description: 'A page of jobs.',
        schema: z.object({
          items: z.array(jobSchema),
          total: z.number().int(),
          limit: z.number().int(),
          offset: z.number().int(),
        }),
      },
    },
    async handler({ kernel, query }) {
      const data: Record<string, string> = {};
      if (query.source_id) data.sourceId = query.source_id;
      if (query.kind === 'scan' || query.kind === 'sync') data.kind = query.kind;
      const { items, total } = await kernel.jobs.list<Record<string, unknown>>({
        queues: query.kind ? [kindQueues[query.kind]] : allQueues,
        ...(query.status ? { states: [query.status as JobState] } : {}),
        ...(Object.keys(data).length ? { data } : {}),
        finishedAfter: new Date(Date.now() - kernel.config.values.JOB_STATE_TTL_SECONDS * 1000),
        limit: query.limit,
        offset: query.offset,
      });
      return { status: 200, body: { items: items.map(present), total, limit: query.limit, offset: query.offset } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/jobs/{id}',
    access: 'required',
    tag: 'Jobs',
    operationId: 'getJob',
    summary: 'One job with its progress and ETA',
    description:
      'Queued and running jobs, and finished ones for JOB_STATE_TTL_SECONDS after they ' +
      'ended, as the list shows them; later a finished job answers 404.',
    request: { params: idParams },
    responses: {
      200: { description: 'The job.', schema: jobSchema },
      404: { description: 'No such job, or a finished one whose state expired.' },
    },
    handler: async ({ kernel, params }) => ({ status: 200, body: present(await shownJob(kernel, params.id)) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/jobs/{id}/cancel',
    access: 'editor',
    tag: 'Jobs',
    operationId: 'cancelJob',
    summary: 'Cancel a queued or running job',
    description:
      'The job ends `cancelled`; running work is stopped through its abort signal on ' +
      "whichever replica runs it, and the jobs it started (a sync's indexing of the " +
      'documents it found) are cancelled too. A finished job answers 409.',
    request: { params: idParams },
    responses: { 202: { description: 'Cancelled.', schema: jobSchema } },
    deps: { syncs: syncTokens.service },
    async handler({ kernel, deps, params }) {
      const job = await findJob(kernel, params.id);
      await kernel.jobs.cancel(job.queue, job.id);
      // Started at once but not waited for (a big sync queued thousands, cancelled one at a time);
      // the sync does it again once its loop has stopped, catching one queued as the cancel came in.
      if (job.queue === syncQueue) {
        deps.syncs
          .cancelIndexingStartedBy(job.id)
          .catch((error: unknown) =>
            kernel.logger.warn({ err: error, job_id: job.id }, 'cancelling the indexing a sync queued failed'),
          );
      }
      return { status: 202, body: present(await findJob(kernel, params.id)) };
    },
  }),
];
