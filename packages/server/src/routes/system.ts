import { z } from 'zod';
import { providerTokens, tokens } from '@docqa/plugin-api';
import type { Kernel } from '@docqa/kernel';
import { defineRoute } from '../http/route.js';
import { readBuildInfo } from '../build-info.js';

const versionSchema = z.object({
  version: z.string().describe('Semantic version of the running application.'),
  commit: z.string().describe('Source commit, or "unknown".'),
  build_date: z.string().describe('ISO 8601 build time, or "unknown".'),
});

const checkState = z.enum(['ok', 'error', 'timeout', 'stopped', 'not_configured']);

const healthSchema = versionSchema.extend({
  status: z.enum(['ok', 'degraded']),
  checks: z.object({
    database: checkState,
    jobs: checkState,
    llm: checkState,
    vectors: checkState.describe("The vector store's database (VECTORDB_URL's server when set)."),
  }),
  replicas: z
    .array(
      z.object({
        name: z.string().describe('host:port/database of the replica (never its password).'),
        status: z
          .enum(['up', 'down', 'lagging'])
          .describe('lagging: further behind than DATABASE_READ_MAX_LAG_SECONDS; down and lagging take no reads.'),
        lag_seconds: z.number().nullable().describe('Seconds behind the primary at the last probe; null when down.'),
      }),
    )
    .describe("DATABASE_READ_URL's read replicas as the last probe (every few seconds) found them; empty without."),
});

const databaseCheckTimeoutMs = 5000;

async function checkDatabase(kernel: Kernel): Promise<z.infer<typeof checkState>> {
  return answersInTime(kernel.db.query('select 1'));
}

/** The vector store's own database, which VECTORDB_URL may put on another server. */
async function checkVectors(kernel: Kernel): Promise<z.infer<typeof checkState>> {
  if (!kernel.container.has(providerTokens.vectorStore)) return 'not_configured';
  const store = kernel.resolve(providerTokens.vectorStore);
  return store.ping ? answersInTime(store.ping()) : 'ok';
}

async function answersInTime(work: Promise<unknown>): Promise<z.infer<typeof checkState>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), databaseCheckTimeoutMs);
  });
  try {
    return await Promise.race([work.then(() => 'ok' as const), timeout]);
  } catch {
    return 'error';
  } finally {
    clearTimeout(timer);
  }
}

export const systemRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/health',
    access: 'public',
    tag: 'System',
    operationId: 'getHealth',
    summary: 'Health status with the running version',
    description:
      'Answers 200 when the database answers (status ok, or degraded when jobs, the vector ' +
      'store or a read replica are not), 503 when the database is down.',
    responses: {
      200: { description: 'Healthy or degraded.', schema: healthSchema },
      503: { description: 'The database is down.', schema: healthSchema },
    },
    async handler({ kernel }) {
      const [database, vectors] = await Promise.all([checkDatabase(kernel), checkVectors(kernel)]);
      const jobs = kernel.jobs.isRunning() ? 'ok' : 'stopped';
      const llm = kernel.container.has(providerTokens.llm) ? 'ok' : 'not_configured';
      const healthy = database === 'ok';
      // Without its vectors search still answers lexically: degraded, not down.
      const vectorsUsable = vectors === 'ok' || vectors === 'not_configured';
      // A replica down or behind leaves its reads to the primary: working, with less room.
      const replicas = kernel
        .resolve(tokens.readDb)
        .replicas()
        .map((replica) => ({ name: replica.name, status: replica.status, lag_seconds: replica.lagSeconds }));
      const replicasUp = replicas.every((replica) => replica.status === 'up');
      const status = healthy && jobs === 'ok' && vectorsUsable && replicasUp ? 'ok' : 'degraded';
      return {
        status: healthy ? 200 : 503,
        body: { status, ...readBuildInfoCached(), checks: { database, jobs, llm, vectors }, replicas },
        headers: { 'Cache-Control': 'no-store' },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/version',
    access: 'public',
    tag: 'System',
    operationId: 'getVersion',
    summary: 'The running application version',
    responses: { 200: { description: 'Version metadata.', schema: versionSchema } },
    // Answered by node:http before express (http/fast-path.ts); express still serves its other spellings.
    fixedAnswer: versionAnswer,
    handler: versionAnswer,
  }),
];

function versionAnswer() {
  return { status: 200, body: readBuildInfoCached() };
}

let cachedBuildInfo: ReturnType<typeof readBuildInfo> | null = null;
function readBuildInfoCached() {
  cachedBuildInfo ??= readBuildInfo();
  return cachedBuildInfo;
}
