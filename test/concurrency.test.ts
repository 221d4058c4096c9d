import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { baseEnv, serveCli, type ServingCli } from './support/cli.js';
import { databaseEnv } from './support/database.js';
import { usePlanFile } from './support/plan-stand-in.js';
import { ApiClient, until, type Json } from './support/api.js';
import { multipartBody, rawUpload } from '../packages/server/src/testing/raw-upload.test-support.js';

/** What one request came to: an HTTP status with a JSON body, or the connection error the client saw. */
interface Outcome {
  kind: string;
  status: number;
  body: Json | null;
  error: string | null;
}

/** Runs `total` calls of `call`, `concurrency` at a time; answers every outcome. */
async function hammer(
  total: number,
  concurrency: number,
  call: (index: number) => Promise<Outcome>,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) outcomes.push(await call(next++));
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcomes;
}

async function outcomeOf(kind: string, request: Promise<Response>): Promise<Outcome> {
  try {
    const res = await request;
    const text = await res.text();
    let body: Json | null = null;
    try {
      body = text ? (JSON.parse(text) as Json) : {};
    } catch {
      body = null;
    }
    return { kind, status: res.status, body, error: null };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { kind, status: 0, body: null, error: cause?.code ?? (error as Error).message };
  }
}

/** Every outcome of an API request must be a real HTTP answer; an error answer is `{detail, code}` JSON, never a 5xx. */
function expectWellFormed(outcomes: Outcome[], allowed: Record<string, number[]>): void {
  const wrong = outcomes.filter((outcome) => {
    if (outcome.error !== null || outcome.status >= 500) return true;
    if (!(allowed[outcome.kind] ?? []).includes(outcome.status)) return true;
    if (outcome.status >= 400)
      return typeof outcome.body?.detail !== 'string' || typeof outcome.body?.code !== 'string';
    return outcome.kind !== 'sse' && outcome.body === null;
  });
  expect(
    wrong.slice(0, 5),
    `${wrong.length} of ${outcomes.length} outcomes were not well-formed answers`,
  ).to.deep.equal([]);
}

describe('concurrency: uploads, searches, chats and cancels at once, at the plan limits (end to end)', function () {
  this.timeout(600_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-e2e-concurrency-'));
  let database: Awaited<ReturnType<typeof databaseEnv>>;
  let server: ServingCli;
  let plan: ReturnType<typeof usePlanFile>;
  let api: ApiClient;
  let stored: string[] = [];

  const upload = (name: string, text: string) => {
    const form = new FormData();
    form.append('file', new Blob([text], { type: 'text/plain' }), name);
    return outcomeOf(
      'upload',
      fetch(`${api.url}/api/docs/upload`, {
        method: 'POST',
        headers: { authorization: api.authorization },
        body: form,
      }),
    );
  };
  const lateUpload = async (name: string): Promise<Outcome> => {
    const { boundary, parts } = multipartBody([{ name, content: `late ${name}` }]);
    const answer = await rawUpload(api.url, { token: api.authorization.slice(7), body: parts, boundary, delayMs: 20 });
    return { kind: 'upload', ...answer };
  };
  const healthy = async () => (await fetch(`${api.url}/api/health`)).status === 200;
  const documentIds = async (): Promise<string[]> => {
    const ids: string[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = (await api.call('GET', `/api/docs?limit=100&offset=${offset}`)).body;
      ids.push(...(page.items as Json[]).map((item) => item.id as string));
      if ((page.items as Json[]).length < 100) return ids;
    }
  };

  before(async () => {
    database = await databaseEnv();
    plan = usePlanFile(dir, { plan: 'FREE' });
    const env = baseEnv({
      JWT_SECRET_KEY: 'j'.repeat(48),
      MFA_ENCRYPTION_KEY: 'm'.repeat(48),
      DOCQA_DATA_DIR: path.join(dir, 'data'),
      PORT: '0',
      BACKEND_WORKERS: '1',
      DEFAULT_ADMIN_PASSWORD: 'admin-password-1',
      SHUTDOWN_TIMEOUT_SECONDS: '5',
      ...plan.env,
      ...database.env,
    });
    server = await serveCli({ cwd: dir, env });
    api = await ApiClient.login(server.url, 'admin', 'admin-password-1');
    // The FREE plan's 100 documents, 20 to a request.
    for (let batch = 0; batch < 5; batch++) {
      await api.upload(
        Array.from({ length: 20 }, (_, i) => ({
          name: `base-${batch}-${i}.txt`,
          text: `Base document ${batch}-${i} about the cooling period of unit ${i}.`,
        })),
      );
    }
    stored = await documentIds();
    expect(stored).to.have.length(100);
  });

  after(async () => {
    await server?.stop();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a full FREE plan: 400 uploads four at a time are 400 × 403 JSON, and the server lives on', async () => {
    const outcomes = await hammer(400, 4, (i) =>
      i % 2 === 0 ? upload(`over-${i}.txt`, `over ${i}`) : lateUpload(`late-${i}.txt`),
    );
    expect(outcomes.filter((o) => o.status === 403 && o.body?.code === 'plan_limit')).to.have.length(400);
    expect(await healthy()).to.equal(true);
  });

  it('the same with 50 concurrent clients', async () => {
    const outcomes = await hammer(400, 50, (i) =>
      i % 2 === 0 ? upload(`over50-${i}.txt`, `over ${i}`) : lateUpload(`late50-${i}.txt`),
    );
    expect(outcomes.filter((o) => o.status === 403 && o.body?.code === 'plan_limit')).to.have.length(400);
    expect(await healthy()).to.equal(true);
  });

  it('uploads, searches, chats, cancels, malformed and aborted requests at once: every answer well-formed, nothing stored lost', async () => {
    // Room for 40 more documents: of the 60 uploads below, some pass and the limit is reached mid-run.
    plan.setPlan({ plan: 'FREE', limits: { documents: 140, fileSizeBytes: 1024 * 1024, storageBytes: 1024 ** 3 } });
    const accepted: string[] = [];
    const mixed = (i: number): Promise<Outcome> => {
      switch (i % 8) {
        case 0:
          return upload(`mixed-${i}.txt`, `Mixed document ${i} about unit ${i % 13} and its cooling period.`).then(
            (outcome) => {
              for (const document of (outcome.body?.documents as Json[] | undefined) ?? [])
                accepted.push(document.id as string);
              return outcome;
            },
          );
        case 1:
          return outcomeOf(
            'search',
            fetch(`${api.url}/api/search`, {
              method: 'POST',
              headers: { authorization: api.authorization, 'content-type': 'application/json' },
              body: JSON.stringify({ query: `cooling period unit ${i % 13}` }),
            }),
          );
        case 2:
          return outcomeOf(
            'chat',
            fetch(`${api.url}/api/chat`, {
              method: 'POST',
              headers: { authorization: api.authorization, 'content-type': 'application/json' },
              body: JSON.stringify({ query: `What is the cooling period of unit ${i % 13}?` }),
            }),
          );
        case 3:
          return outcomeOf(
            'sse',
            fetch(`${api.url}/api/chat`, {
              method: 'POST',
              headers: {
                authorization: api.authorization,
                'content-type': 'application/json',
                accept: 'text/event-stream',
              },
              body: JSON.stringify({ query: `unit ${i % 13}` }),
            }),
          );
        case 4:
          return cancelSomeJob();
        case 5: {
          const { boundary, parts } = multipartBody([{ name: `cut-${i}.txt`, content: 'x'.repeat(40_000) }]);
          return rawUpload(api.url, {
            token: api.authorization.slice(7),
            body: [parts[0]!.subarray(0, 10_000), parts[0]!.subarray(10_000)],
            boundary,
            delayMs: 10,
            abortAfterPieces: 1,
          }).then((answer) => ({ kind: 'aborted', ...answer }));
        }
        case 6:
          return rawUpload(api.url, {
            token: api.authorization.slice(7),
            body: Buffer.from(`--nope\r\ngarbage ${i}`),
            boundary: 'b',
          }).then((answer) => ({ kind: 'malformed', ...answer }));
        default:
          return outcomeOf(
            'list',
            fetch(`${api.url}/api/docs?limit=50`, { headers: { authorization: api.authorization } }),
          );
      }
    };
    const cancelSomeJob = async (): Promise<Outcome> => {
      const jobs = (await api.call('GET', '/api/jobs?limit=5')).body.items as Json[];
      const target = jobs.find((job) => job.status === 'queued' || job.status === 'running') ?? jobs[0];
      if (!target) return { kind: 'cancel', status: 404, body: { detail: 'no job', code: 'not_found' }, error: null };
      return outcomeOf(
        'cancel',
        fetch(`${api.url}/api/jobs/${target.id as string}/cancel`, {
          method: 'POST',
          headers: { authorization: api.authorization },
        }),
      );
    };
    const outcomes = await hammer(480, 12, mixed);
    // An aborted upload's client hung up: it has no answer to judge, only the server's health after it.
    const judged = outcomes.filter((outcome) => outcome.kind !== 'aborted' || outcome.status !== 0);
    expectWellFormed(judged, {
      upload: [202, 403],
      search: [200],
      chat: [200],
      sse: [200],
      cancel: [200, 202, 204, 404, 409],
      // Once the plan is full, the limit is checked (403) before a malformed body is noticed (400).
      aborted: [400, 403],
      malformed: [400, 403],
      list: [200],
    });
    expect(outcomes.filter((o) => o.kind === 'upload' && o.status === 403).length).to.be.greaterThan(0);
    expect(await healthy()).to.equal(true);
    const now = new Set(await documentIds());
    for (const id of [...stored, ...accepted]) expect(now.has(id), `document ${id} is gone`).to.equal(true);
    await until(
      'no staged upload left behind',
      async () => fs.readdirSync(path.join(dir, 'data', 'blobs', 'tmp')).length === 0,
      10_000,
    );
  });
});
