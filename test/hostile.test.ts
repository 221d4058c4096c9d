import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Document, Packer, Paragraph } from 'docx';
import ExcelJS from 'exceljs';
import { baseEnv, serveCli, type ServingCli } from './support/cli.js';
import { databaseEnv } from './support/database.js';
import { usePlanFile } from './support/plan-stand-in.js';
import { ApiClient, until, type Json } from './support/api.js';
import { pageBombPdf } from './support/hostile-inputs.js';
import { inflatedDocx } from '../plugins/extractor-docx/src/zip-bomb.test-support.js';
import { inflatedXlsx } from '../plugins/extractor-xlsx/src/zip-bomb.test-support.js';

/*
 * The red team's attacks of issue 28, all at once, against a real `docqa serve`, while the server's
 * resident memory is sampled: a 10,000-key metadata filter (search and chat), the DOCX and XLSX zip bombs,
 * the 100,000-page PDF, 60 wrong passwords, a flood of OIDC sign-in starts, a web source and an
 * OIDC provider on internal addresses, NUL characters. Every answer must be the JSON error (or
 * success) it should be, the server must stay within its memory bound, and a real user's search
 * must still be answered.
 */

/** Resident memory of the server and every process it started (worker processes, if any), in bytes. */
function residentBytes(rootPid: number): number {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing parenthesis.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended meanwhile.
    }
  }
  const tree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (tree.has(parent) && !tree.has(pid)) grew = tree.add(pid) !== undefined;
    }
  }
  let total = 0;
  for (const pid of tree) {
    try {
      const kib = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      total += Number(kib ?? 0) * 1024;
    } catch {
      // Ended meanwhile.
    }
  }
  return total;
}

interface Outcome {
  attack: string;
  status: number;
  body: Json | null;
  error: string | null;
}

async function outcomeOf(attack: string, request: Promise<Response>): Promise<Outcome> {
  try {
    const res = await request;
    const text = await res.text();
    let body: Json | null = null;
    try {
      body = text ? (JSON.parse(text) as Json) : {};
    } catch {
      body = null;
    }
    return { attack, status: res.status, body, error: null };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { attack, status: 0, body: null, error: cause?.code ?? (error as Error).message };
  }
}

/** The statuses each attack may be answered with; errors must be `{detail, code}` JSON. */
const allowed: Record<string, number[]> = {
  'search filter bomb': [422],
  'chat filter bomb': [422],
  'search NUL': [422],
  'login NUL': [422],
  'wrong password': [401, 429],
  'OIDC start flood': [404, 429],
  'OIDC provider on the metadata address': [503, 429],
  'zip bomb upload': [202],
  'page bomb upload': [202],
  'internal web source': [201],
  'internal web source sync': [202],
};

function wrongOutcomes(outcomes: Outcome[]): Outcome[] {
  return outcomes.filter((outcome) => {
    if (outcome.error !== null || outcome.body === null) return true;
    if (!(allowed[outcome.attack] ?? []).includes(outcome.status)) return true;
    return outcome.status >= 400 && (typeof outcome.body.detail !== 'string' || typeof outcome.body.code !== 'string');
  });
}

// Issue 28's bounds: under 1 GB (10^9 bytes), and the server answers a real user within 5 s.
const memoryBound = 1e9;
const serverAnswerBoundMs = 5_000;
// What the test process waits for the answer also holds its own turn among the attack's 110
// requests on a shared machine: generous. Unattacked, the search answers in milliseconds.
const userAnswerBoundMs = 15_000;

/** How long the server took over a request (its access log line, found by the request's id), in ms. */
function serverDurationMs(output: string, requestId: string): number | undefined {
  for (const line of output.split('\n')) {
    if (!line.includes(requestId)) continue;
    try {
      const entry = JSON.parse(line) as { request_id?: string; duration_ms?: number };
      if (entry.request_id === requestId) return entry.duration_ms;
    } catch {
      // Not a log line of its own.
    }
  }
  return undefined;
}

describe('hostile inputs all at once against a real server, its memory sampled (end to end)', function () {
  this.timeout(900_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-e2e-hostile-'));
  let database: Awaited<ReturnType<typeof databaseEnv>>;
  let server: ServingCli;
  let admin: ApiClient;
  let user: ApiClient;
  let internal: http.Server;
  let internalUrl: string;
  const internalRequests: string[] = [];
  let bombs: Record<string, [Uint8Array, string]>;
  let pageBomb: Uint8Array;

  before(async function () {
    if (!fs.existsSync('/proc/self/status')) this.skip();
    // Built before the server starts: building them keeps this process busy for seconds, and a
    // keep-alive connection left idle meanwhile is closed by the server (5 s) without this process
    // seeing it, so the upload that reused it failed with EPIPE (seen on PostgreSQL).
    const base = new Uint8Array(
      await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('x')] }] })),
    );
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Sheet').addRow(['x']);
    const xlsxBase = new Uint8Array(await workbook.xlsx.writeBuffer());
    const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    bombs = {
      // Inflates to about 130 MB of paragraphs: over maxUncompressedBytes.
      'bomb.docx': [inflatedDocx(base, 1_600_000), docxType],
      // Inflates about 8 MB, compressed far beyond maxCompressionRatio.
      'ratio.docx': [inflatedDocx(base, 100_000), docxType],
      // Inflates to about 100 MB of rows, compressed beyond maxCompressionRatio.
      'bomb.xlsx': [inflatedXlsx(xlsxBase, 55_000), xlsxType],
    };
    pageBomb = pageBombPdf(100_000);
    internal = http.createServer((req, res) => {
      internalRequests.push(req.url ?? '');
      res.setHeader('content-type', 'text/html');
      res.end('<html><body>internal admin console: secrets</body></html>');
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}/`;
    database = await databaseEnv();
    const plan = usePlanFile(dir, { plan: 'ENTERPRISE' });
    server = await serveCli({
      cwd: dir,
      timeoutMs: 120_000,
      env: baseEnv({
        JWT_SECRET_KEY: 'j'.repeat(48),
        MFA_ENCRYPTION_KEY: 'm'.repeat(48),
        DOCQA_DATA_DIR: path.join(dir, 'data'),
        PORT: '0',
        BACKEND_WORKERS: '1',
        DEFAULT_ADMIN_PASSWORD: 'admin-password-1',
        SHUTDOWN_TIMEOUT_SECONDS: '5',
        // The memory settings npm start and the image run the server with: the bound assumes them.
        MALLOC_ARENA_MAX: '2',
        MALLOC_MMAP_THRESHOLD_: '65536',
        NODE_OPTIONS: '--max-semi-space-size=4',
        ...plan.env,
        ...database.env,
      }),
    });
    admin = await ApiClient.login(server.url, 'admin', 'admin-password-1');
    const created = await admin.call('POST', '/api/auth/users', { username: 'reader', password: 'reader-password-1' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    // Signed in before the password flood: sign-in counts failures per client address too.
    user = await ApiClient.login(server.url, 'reader', 'reader-password-1');
    const [document] = await admin.upload([
      {
        name: 'retention.txt',
        text: 'Invoice retention.\n\nInvoices are archived for ten years in the finance vault.',
      },
    ]);
    await until('the real document to be indexed', async () => {
      const status = (await admin.call('GET', `/api/docs/${document!.id as string}`)).body.status as string;
      if (status === 'failed') throw new Error('the real document failed');
      return status === 'indexed';
    });
  });

  after(async () => {
    await server?.stop();
    await database?.drop();
    await new Promise<void>((resolve) => (internal ? internal.close(() => resolve()) : resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const post = (route: string, body: unknown, client: ApiClient | null = admin) =>
    fetch(server.url + route, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(client ? { authorization: client.authorization } : {}) },
      body: JSON.stringify(body),
    });
  const upload = (name: string, bytes: Uint8Array, type: string) => {
    const form = new FormData();
    // A copy on an ArrayBuffer of its own, as Blob wants.
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    return fetch(`${server.url}/api/docs/upload`, {
      method: 'POST',
      headers: { authorization: admin.authorization },
      body: form,
    });
  };

  it('answers every attack as it should, stays within 1 GB, and still serves a real user', async () => {
    const bigFilter = Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`key${index}`, 'value']));

    let peak = residentBytes(server.child.pid!);
    const sampler = setInterval(() => {
      peak = Math.max(peak, residentBytes(server.child.pid!));
    }, 100);
    try {
      const uploads = await Promise.all([
        ...Object.entries(bombs).map(([name, [bytes, type]]) =>
          outcomeOf('zip bomb upload', upload(name, bytes, type)),
        ),
        outcomeOf('page bomb upload', upload('pages.pdf', pageBomb, 'application/pdf')),
      ]);
      const provider = await admin.call('POST', '/api/admin/oidc/providers', {
        name: 'metadata',
        display_name: 'Metadata',
        discovery_url: 'http://169.254.169.254/.well-known/openid-configuration',
        client_id: 'docqa',
      });
      expect(provider.status, JSON.stringify(provider.body)).to.equal(201);
      const source = await outcomeOf(
        'internal web source',
        post('/api/integrations', { name: 'Intranet', type: 'web', config: { start_url: internalUrl } }),
      );
      const sourceId = source.body?.id as string;

      // The real user's search, started while everything else is under way.
      const userSearch = (async () => {
        const started = performance.now();
        const res = await fetch(`${server.url}/api/search`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: user.authorization,
            'x-request-id': 'hostile-real-user-search',
          },
          body: JSON.stringify({ query: 'How long are invoices archived?' }),
        });
        const body = (await res.json()) as Json;
        return { status: res.status, body, ms: performance.now() - started };
      })();
      const attacks = await Promise.all([
        outcomeOf('internal web source sync', post(`/api/integrations/${sourceId}/sync`, {})),
        ...Array.from({ length: 5 }, () =>
          outcomeOf('search filter bomb', post('/api/search', { query: 'invoices', filters: { metadata: bigFilter } })),
        ),
        ...Array.from({ length: 3 }, () =>
          outcomeOf('chat filter bomb', post('/api/chat', { query: 'invoices', filters: { metadata: bigFilter } })),
        ),
        outcomeOf('search NUL', post('/api/search', { query: 'invoices\u0000' })),
        outcomeOf('login NUL', post('/api/auth/login', { username: 'admin\u0000', password: 'x' }, null)),
        ...Array.from({ length: 60 }, (_, index) =>
          outcomeOf('wrong password', post('/api/auth/login', { username: 'admin', password: `guess-${index}` }, null)),
        ),
        ...Array.from({ length: 40 }, () =>
          outcomeOf('OIDC start flood', fetch(`${server.url}/api/auth/oidc/nobody/login`, { redirect: 'manual' })),
        ),
        outcomeOf(
          'OIDC provider on the metadata address',
          fetch(`${server.url}/api/auth/oidc/metadata/login`, { redirect: 'manual' }),
        ),
      ]);
      const search = await userSearch;
      // The access log line is written when the answer is done; it reaches the test soon after.
      const serverMs = await until(
        "the access log line of the real user's search",
        async () => serverDurationMs(server.output(), 'hostile-real-user-search'),
        10_000,
        100,
      );
      if (process.env.DOCQA_TEST_REPORT) {
        console.log(`the real user's search: ${Math.round(search.ms)} ms, ${serverMs} ms of it in the server`);
      }

      const outcomes = [...uploads, source, ...attacks];
      expect(wrongOutcomes(outcomes).slice(0, 5), 'answers that are not what the attack should get').to.deep.equal([]);
      expect(attacks.filter((outcome) => outcome.attack === 'wrong password' && outcome.status === 429)).to.not.be
        .empty;
      const refusal = attacks.find((outcome) => outcome.attack === 'OIDC provider on the metadata address');
      if (refusal?.status === 503) expect(refusal.body?.detail).to.contain('169.254.169.254').and.contain('link-local');
      expect(search.status, JSON.stringify(search.body)).to.equal(200);
      expect((search.body.items as Json[]).length).to.be.greaterThan(0);
      expect(serverMs, 'the server took too long over the real user').to.be.a('number').and.below(serverAnswerBoundMs);
      expect(search.ms, 'the real user waited too long').to.be.below(userAnswerBoundMs);

      // The files fail alone, each naming its limit; the crawl of the internal site is refused.
      for (const outcome of uploads) {
        for (const document of outcome.body?.documents as Json[]) {
          const failed = await until(
            `${document.filename as string} to fail`,
            async () => {
              const body = (await admin.call('GET', `/api/docs/${document.id as string}`)).body;
              if (body.status === 'indexed') throw new Error(`${document.filename as string} was indexed`);
              return body.status === 'failed' ? body : null;
            },
            300_000,
            500,
          );
          expect(failed.error).to.match(/zip bomb|compressed|pages, more than/);
        }
      }
      const syncJob = attacks.find((outcome) => outcome.attack === 'internal web source sync')?.body?.job_id as string;
      const job = await admin.waitForJob(syncJob, 120_000);
      expect(JSON.stringify(job)).to.contain('loopback address');
      expect(internalRequests).to.deep.equal([]);
    } finally {
      clearInterval(sampler);
    }
    if (process.env.DOCQA_TEST_REPORT) console.log(`peak resident memory ${Math.round(peak / 1e6)} MB`);
    expect(peak, `peak resident memory ${Math.round(peak / 1e6)} MB`).to.be.below(memoryBound);
    // And afterwards, the server still serves.
    expect((await fetch(`${server.url}/api/health`)).status).to.equal(200);
    expect((await user.call('POST', '/api/search', { query: 'invoices' })).status).to.equal(200);
  });
});
