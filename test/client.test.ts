import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createDocqaClient, DocqaClientError, orThrow, type ChatStreamEvent } from '@docqa/client';
import { renderTypes } from '../packages/client/src/generate.js';
import { runAsk } from '../packages/server/src/cli/ask.js';
import { ApiClient } from './support/api.js';
import { baseEnv, runCli, serveCli, type ServingCli } from './support/cli.js';
import { databaseEnv } from './support/database.js';

const adminPassword = 'admin-password-1';
const handbook =
  'Employee handbook: every employee gets twenty-five days of paid holiday a year. ' +
  'Unused days carry over until the end of March.';

/** A loopback port nothing listens on: the client's and `docqa ask`'s "not reachable". */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * @docqa/client and `docqa ask` against a real `docqa serve` on loopback (extractive answers, the
 * embedded database or TEST_DATABASE_URL): sign-in, keys, search, chat as JSON and streamed.
 */
describe('@docqa/client and docqa ask (end to end)', function () {
  this.timeout(300_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-e2e-client-'));
  let database: Awaited<ReturnType<typeof databaseEnv>>;
  let server: ServingCli;
  let documentId = '';
  let readKey = '';
  let writeOnlyKey = '';

  before(async () => {
    database = await databaseEnv();
    const env = {
      JWT_SECRET_KEY: 'j'.repeat(48),
      MFA_ENCRYPTION_KEY: 'm'.repeat(48),
      DOCQA_DATA_DIR: path.join(dir, 'data'),
      PORT: '0',
      BACKEND_WORKERS: '1',
      DEFAULT_ADMIN_PASSWORD: adminPassword,
      SHUTDOWN_TIMEOUT_SECONDS: '5',
      RAG_MIN_CHUNK_LENGTH: '1',
    };
    server = await serveCli({ cwd: dir, env: baseEnv({ ...env, ...database.env }), timeoutMs: 180_000 });
    const admin = await ApiClient.login(server.url, 'admin', adminPassword);
    const [document] = await admin.upload([{ name: 'handbook.txt', text: handbook }]);
    expect((await admin.waitForJob(document!.job_id as string)).status).to.equal('succeeded');
    documentId = document!.id as string;
  });
  after(async () => {
    await server?.stop('SIGTERM');
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('signs in, creates an API key and lists it, typed by the generated schemas', async () => {
    const anonymous = createDocqaClient({ baseUrl: `${server.url}/` });
    const signedIn = await orThrow(
      anonymous.POST('/api/auth/login', { body: { username: 'admin', password: adminPassword } }),
    );
    if (!('access_token' in signedIn)) throw new Error('expected tokens, not the TOTP step');
    const session = createDocqaClient({ baseUrl: server.url, accessToken: signedIn.access_token });
    const me = await orThrow(session.GET('/api/auth/me'));
    expect(me).to.include({ username: 'admin', role: 'admin' });
    const created = await orThrow(session.POST('/api/auth/api-keys', { body: { name: 'client test' } }));
    expect(created.key).to.match(/^docqa_[A-Za-z0-9_-]{43}$/);
    expect(created.scopes).to.deep.equal(['read']);
    readKey = created.key;
    const writeOnly = { name: 'uploader', scopes: ['write' as const] };
    writeOnlyKey = (await orThrow(session.POST('/api/auth/api-keys', { body: writeOnly }))).key;
    const listed = await orThrow(session.GET('/api/auth/api-keys'));
    expect(listed.items.map((key) => key.name)).to.deep.equal(['client test', 'uploader']);
    // A failure is the API's {detail, code} in openapi-fetch's `error`, or a DocqaClientError from orThrow.
    const wrong = await anonymous.POST('/api/auth/login', { body: { username: 'admin', password: 'wrong-one-1' } });
    expect([wrong.response.status, wrong.error?.code]).to.deep.equal([401, 'invalid_credentials']);
  });

  it('searches and asks with the API key: JSON, then streamed through chatStream', async () => {
    const client = createDocqaClient({ baseUrl: server.url, apiKey: readKey });
    const found = await orThrow(client.POST('/api/search', { body: { query: 'paid holiday', top_k: 3 } }));
    expect(found.items[0]).to.include({ document_id: documentId, title: 'handbook.txt' });
    const question = 'How many days of paid holiday does an employee get?';
    const answer = await orThrow(client.POST('/api/chat', { body: { query: question } }));
    expect(answer.answer).to.include('twenty-five days of paid holiday');
    expect(answer.sources[0]).to.include({ index: 1, document_id: documentId });
    const events: ChatStreamEvent[] = [];
    for await (const event of client.chatStream({ query: question, conversation_id: answer.conversation_id }))
      events.push(event);
    const deltas = events.filter((event) => event.type === 'delta');
    expect(deltas.length, 'delta events').to.be.greaterThan(1);
    expect(deltas.map((event) => event.text).join('')).to.include('twenty-five days of paid holiday');
    const last = events.at(-1)!;
    if (last.type !== 'done') throw new Error('the stream ends with done');
    expect(last.done.conversation_id).to.equal(answer.conversation_id);
    expect(last.done.sources[0]).to.include({ document_id: documentId, title: 'handbook.txt' });
    const conversation = await orThrow(
      client.GET('/api/conversations/{id}', { params: { path: { id: answer.conversation_id } } }),
    );
    expect(conversation.turns).to.have.length(2);
  });

  it('chatStream throws DocqaClientError: 401, 403 without the read scope, 422, no server', async () => {
    const failure = async (apiKey: string, query = 'Holidays?', baseUrl = server.url) => {
      try {
        for await (const _event of createDocqaClient({ baseUrl, apiKey }).chatStream({ query }));
      } catch (error) {
        expect(error).to.be.instanceOf(DocqaClientError);
        return error as DocqaClientError;
      }
      throw new Error('expected the stream to fail');
    };
    const unknown = await failure(`docqa_${'x'.repeat(43)}`);
    expect([unknown.status, unknown.code]).to.deep.equal([401, 'unauthorized']);
    const scope = await failure(writeOnlyKey);
    expect([scope.status, scope.code, scope.body.required_scope]).to.deep.equal([403, 'forbidden', 'read']);
    expect((await failure(readKey, '   ')).status).to.equal(422);
    const offline = await failure(readKey, 'Holidays?', `http://127.0.0.1:${await closedPort()}`);
    expect([offline.status, offline.code]).to.deep.equal([null, 'network_error']);
  });

  it('the committed types are those of the document the server serves', async () => {
    const served = (await (await fetch(`${server.url}/docs/openapi.json`)).json()) as object;
    const committed = fs.readFileSync(new URL('../packages/client/src/openapi.ts', import.meta.url), 'utf8');
    expect(await renderTypes(served as never)).to.equal(committed);
  });

  describe('docqa ask', () => {
    const ask = (args: string[], env: Record<string, string> = {}) =>
      runCli(['ask', ...args], { cwd: dir, env: baseEnv(env), timeoutMs: 120_000 });

    it('streams the answer to stdout, then the sources (URL and key from the environment)', async () => {
      const result = await ask(['How many days of paid holiday', 'does an employee get?'], {
        DOCQA_URL: server.url,
        DOCQA_API_KEY: readKey,
      });
      expect(result.code, result.stderr).to.equal(0);
      const [answer, sources] = result.stdout.split('\nSources:\n');
      expect(answer).to.include('twenty-five days of paid holiday').and.include('[1]');
      expect(sources).to.match(/^ {2}\[1\] handbook\.txt$/m);
      expect(result.stdout).to.match(/Conversation: [0-9a-f-]{36}\n$/);
      expect(result.stderr).to.equal('');
    });

    it('takes --url and --key over the environment', async () => {
      const env = { DOCQA_URL: 'http://127.0.0.1:1', DOCQA_API_KEY: 'docqa_wrong' };
      const result = await ask(['Until when do unused days carry over?', '--url', server.url, '--key', readKey], env);
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout).to.include('end of March');
    });

    it('exits 3 on a refused key, 4 without the read scope, 5 when DocQA is not reachable', async () => {
      const refused = await ask(['Holidays?', '--url', server.url, '--key', `docqa_${'x'.repeat(43)}`]);
      expect(refused.code).to.equal(3);
      expect(refused.stderr).to.include('refused the API key (401 unauthorized)');
      const scope = await ask(['Holidays?', '--url', server.url, '--key', writeOnlyKey]);
      expect(scope.code).to.equal(4);
      expect(scope.stderr).to.include('may not ask questions (403 forbidden)');
      const offline = await ask(['Holidays?', '--url', `http://127.0.0.1:${await closedPort()}`, '--key', readKey]);
      expect(offline.code).to.equal(5);
      expect(offline.stderr).to.match(/Could not reach DocQA at http:\/\/127\.0\.0\.1:\d+ \(.*\)\. Is it running/);
      expect(refused.stdout + scope.stdout + offline.stdout).to.equal('');
    });

    it('exits 2 without a question, a URL or a key (in process: no request is made)', async () => {
      const run = async (args: string[], env: Record<string, string> = {}) => {
        const output = { out: '', err: '' };
        const io = { env, write: (text: string) => (output.out += text), err: (line: string) => (output.err += line) };
        return { code: await runAsk(args, io), ...output };
      };
      const noUrl = await run(['Holidays?', '--key', readKey]);
      expect([noUrl.code, noUrl.out]).to.deep.equal([2, '']);
      expect(noUrl.err).to.include('No DocQA URL: pass --url or set DOCQA_URL.');
      const noKey = await run(['Holidays?'], { DOCQA_URL: server.url });
      expect([noKey.code, noKey.err]).to.deep.equal([
        2,
        'No API key: pass --key or set DOCQA_API_KEY (create one under Account → API keys).',
      ]);
      expect((await run(['--url', server.url, '--key', readKey])).err).to.include('No question given.');
      expect((await run(['--nonsense'])).code).to.equal(2);
      expect((await run(['--help'])).out).to.include('Usage: docqa ask');
    });
  });
});
