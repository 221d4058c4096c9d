import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import {
  createOutboundPolicy,
  DocqaError,
  type ConnectorEvent,
  type ConnectorProvider,
  type Logger,
} from '@docqa/plugin-api';
import { describeConnectorConformance } from '@docqa/plugin-testkit';
import integrationGit from './index.js';
import { pluginOptionsSchema, type GitSourceConfig } from './config.js';
import { GitTestServer, type TestRepository } from './git-server.test-support.js';

/*
 * The conformance suite and the git integration's own behaviour, against a real smart-HTTP git
 * server (git http-backend) on 127.0.0.1 serving bare repositories the tests push to.
 */

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silentLogger };

/** The test server runs on 127.0.0.1, which the plugin refuses unless outboundAllow allows it. */
async function initGit(
  stateDir: string,
  outboundAllow: string[] = ['127.0.0.1'],
): Promise<ConnectorProvider<GitSourceConfig>> {
  const provider = await integrationGit.init({
    options: pluginOptionsSchema.parse({ stateDir, outboundAllow }),
    instanceId: 'git',
    deps: { logger: silentLogger, outbound: createOutboundPolicy([]) },
    logger: silentLogger,
    onStop: () => undefined,
    signal: new AbortController().signal,
  });
  return provider as ConnectorProvider<GitSourceConfig>;
}

function seed(repository: TestRepository): string {
  repository
    .write('README.md', '# Handbook\n')
    .write('docs/guide.md', '# Guide\n\nHow we work.\n')
    .write('docs/faq.txt', 'Q: why?\nA: because.\n')
    .write('docs/page.html', '<html><body><p>Page</p></body></html>')
    .write('notes/data.csv', 'a,b\n1,2\n')
    .write('src/app.js', 'console.log("not a document");\n');
  return repository.commit('initial');
}

const temporaryDirectory = () => fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-git-test-'));

describeConnectorConformance('integration-git', {
  async start() {
    const server = await new GitTestServer().start();
    const repository = server.createRepository('handbook');
    seed(repository);
    const stateDir = temporaryDirectory();
    return {
      provider: await initGit(stateDir),
      validConfig: { url: repository.url },
      invalidConfig: { url: 'ssh://git@127.0.0.1/handbook.git' },
      async mutate() {
        repository
          .write('docs/new.md', '# New\n')
          .write('docs/guide.md', '# Guide\n\nHow we work now.\n')
          .remove('docs/faq.txt');
        repository.commit('add, change, delete');
        return { added: ['docs/new.md'], changed: ['docs/guide.md'], deleted: ['docs/faq.txt'] };
      },
      async dispose() {
        await server.stop();
        fs.rmSync(stateDir, { recursive: true, force: true });
      },
    };
  },
});

describe('integration-git', function () {
  let server: GitTestServer;
  let repository: TestRepository;
  let stateDir: string;
  let provider: ConnectorProvider<GitSourceConfig>;

  beforeEach(async function () {
    server = await new GitTestServer().start();
    repository = server.createRepository('handbook');
    stateDir = temporaryDirectory();
    provider = await initGit(stateDir);
  });

  afterEach(async function () {
    await server.stop();
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  async function sync(
    config: Partial<GitSourceConfig> = {},
    cursor: string | null = null,
    sourceId = 'repo',
  ): Promise<ConnectorEvent[]> {
    const source = await provider.open(provider.sourceConfigSchema.parse({ url: repository.url, ...config }), {
      sourceId,
    });
    const events: ConnectorEvent[] = [];
    for await (const event of source.sync(cursor, new AbortController().signal)) events.push(event);
    return events;
  }
  const upserts = (events: ConnectorEvent[]) =>
    events.flatMap((e) => (e.type === 'upsert' ? [e.document.externalId] : [])).sort();
  const deletes = (events: ConnectorEvent[]) =>
    events.flatMap((e) => (e.type === 'delete' ? [e.externalId] : [])).sort();
  const cursorOf = (events: ConnectorEvent[]) =>
    (events.at(-1) as Extract<ConnectorEvent, { type: 'checkpoint' }>).cursor;

  it('clones the branch and yields the included files with blob oid, media type and commit time', async function () {
    const head = seed(repository);
    const events = await sync();
    expect(upserts(events)).to.deep.equal([
      'README.md',
      'docs/faq.txt',
      'docs/guide.md',
      'docs/page.html',
      'notes/data.csv',
    ]);
    expect(cursorOf(events)).to.equal(head);
    const guide = events.find((e) => e.type === 'upsert' && e.document.path === 'docs/guide.md');
    if (guide?.type !== 'upsert') throw new Error('no guide');
    expect(guide.document).to.include({ externalId: 'docs/guide.md', title: 'guide.md', mediaType: 'text/markdown' });
    expect(guide.document.contentHash).to.equal(repository.run('rev-parse', `${head}:docs/guide.md`));
    expect(guide.document.modifiedAt?.getTime()).to.equal(
      Number(repository.run('show', '-s', '--format=%ct', head)) * 1000,
    );
    const chunks: Buffer[] = [];
    for await (const chunk of await guide.document.open()) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks).toString('utf8')).to.equal('# Guide\n\nHow we work.\n');
  });

  it('an unchanged repository yields only the same checkpoint', async function () {
    seed(repository);
    const first = await sync();
    expect(await sync({}, cursorOf(first))).to.deep.equal([{ type: 'checkpoint', cursor: cursorOf(first) }]);
  });

  it('reads the configured branch', async function () {
    seed(repository);
    repository.run('checkout', '-q', '-b', 'release');
    repository.write('docs/release-notes.md', '# 2.0\n').remove('docs/faq.txt');
    repository.commit('release', 'release');
    const events = await sync({ branch: 'release' });
    expect(upserts(events)).to.include('docs/release-notes.md').and.not.include('docs/faq.txt');
    expect(upserts(await sync({}, null, 'main-source')))
      .to.include('docs/faq.txt')
      .and.not.include('docs/release-notes.md');
  });

  it('applies include and exclude globs', async function () {
    seed(repository);
    expect(upserts(await sync({ include: ['docs/**'], exclude: ['**/*.html'] }))).to.deep.equal([
      'docs/faq.txt',
      'docs/guide.md',
    ]);
    expect(upserts(await sync({ include: ['**/*.js'] }, null, 'js'))).to.deep.equal(['src/app.js']);
  });

  it('a rename is a delete of the old path and an upsert of the new one', async function () {
    seed(repository);
    const first = await sync();
    repository.move('docs/faq.txt', 'help/faq.txt');
    repository.commit('move the FAQ');
    const second = await sync({}, cursorOf(first));
    expect(deletes(second)).to.deep.equal(['docs/faq.txt']);
    expect(upserts(second)).to.deep.equal(['help/faq.txt']);
  });

  it('after a force push, diffs against the old commit the working clone kept', async function () {
    seed(repository);
    const first = await sync();
    repository.run('reset', '-q', '--hard', 'HEAD');
    repository.run('checkout', '-q', '--orphan', 'rewritten');
    repository.run('rm', '-rq', '--cached', '.');
    fs.rmSync(path.join(repository.work, 'docs'), { recursive: true });
    repository.write('README.md', '# Handbook, rewritten\n');
    const rewritten = repository.commit('history rewritten', 'main', true);
    const second = await sync({}, cursorOf(first));
    expect(cursorOf(second)).to.equal(rewritten);
    expect(deletes(second)).to.deep.equal(['docs/faq.txt', 'docs/guide.md', 'docs/page.html']);
    expect(upserts(second)).to.deep.equal(['README.md']);
  });

  it('a cursor the working clone does not know (state lost) means a full re-sync without deletes', async function () {
    seed(repository);
    const first = await sync();
    repository.remove('docs/faq.txt').commit('remove the FAQ');
    fs.rmSync(stateDir, { recursive: true, force: true });
    const second = await sync({}, cursorOf(first));
    expect(deletes(second), 'nothing tells what the unknown commit held').to.be.empty;
    expect(upserts(second)).to.deep.equal(['README.md', 'docs/guide.md', 'docs/page.html', 'notes/data.csv']);
    const malformed = await sync({}, 'not-a-commit').catch((error: unknown) => error);
    expect(DocqaError.is(malformed, 'validation_failed'), String(malformed)).to.equal(true);
  });

  it('a missing branch fails with validation_failed naming it; an unreachable server with unavailable', async function () {
    seed(repository);
    const missing = await sync({ branch: 'nope' }).catch((error: unknown) => error);
    expect(DocqaError.is(missing, 'validation_failed'), String(missing)).to.equal(true);
    expect((missing as Error).message).to.contain("'nope'");
    const url = repository.url;
    await server.stop();
    const down = await sync({ url }, null, 'down').catch((error: unknown) => error);
    expect(DocqaError.is(down, 'unavailable'), String(down)).to.equal(true);
    expect((down as Error).message).to.contain(url);
    server = await new GitTestServer().start();
  });

  it('stops between files when the sync is cancelled', async function () {
    seed(repository);
    const controller = new AbortController();
    const reason = new Error('cancelled');
    const source = await provider.open(provider.sourceConfigSchema.parse({ url: repository.url }), {
      sourceId: 'abort',
    });
    const seen: ConnectorEvent[] = [];
    const thrown = await (async () => {
      for await (const event of source.sync(null, controller.signal)) {
        seen.push(event);
        controller.abort(reason);
      }
    })().catch((error: unknown) => error);
    expect(thrown).to.equal(reason);
    expect(seen).to.have.length(1);
  });
});

describe('integration-git: authentication', function () {
  let server: GitTestServer;
  let repository: TestRepository;
  let stateDir: string;

  beforeEach(async function () {
    server = await new GitTestServer({ username: 'docqa', password: 'right-token-123' }).start();
    repository = server.createRepository('private');
    seed(repository);
    stateDir = temporaryDirectory();
  });

  afterEach(async function () {
    await server.stop();
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  async function attempt(config: Partial<GitSourceConfig>, sourceId: string): Promise<unknown> {
    const provider = await initGit(stateDir);
    const source = await provider.open(provider.sourceConfigSchema.parse({ url: repository.url, ...config }), {
      sourceId,
    });
    const events: ConnectorEvent[] = [];
    try {
      for await (const event of source.sync(null, new AbortController().signal)) events.push(event);
      return events;
    } catch (error) {
      return error;
    }
  }

  it('sends username and token as HTTP Basic credentials', async function () {
    const events = (await attempt({ username: 'docqa', token: 'right-token-123' }, 'ok')) as ConnectorEvent[];
    expect(events.filter((e) => e.type === 'upsert')).to.have.length(5);
    expect(server.requests.every((r) => r.status !== 401)).to.equal(true);
  });

  it('a wrong or missing token fails with unavailable, without the token in the message', async function () {
    const wrong = await attempt({ username: 'docqa', token: 'wrong-token-456' }, 'wrong');
    expect(DocqaError.is(wrong, 'unavailable'), String(wrong)).to.equal(true);
    expect((wrong as Error).message)
      .to.contain('refused the credentials')
      .and.contain(repository.url)
      .and.not.contain('wrong-token-456');
    expect(JSON.stringify((wrong as DocqaError).toBody())).to.not.contain('wrong-token-456');
    expect((wrong as Error).cause).to.equal(undefined);
    const none = await attempt({}, 'none');
    expect(DocqaError.is(none, 'unavailable'), String(none)).to.equal(true);
    const { secretFields } = await initGit(stateDir);
    expect(secretFields).to.deep.equal(['token']);
  });
});

describe('integration-git: outbound addresses', function () {
  let server: GitTestServer;
  let repository: TestRepository;
  let stateDir: string;
  let redirector: http.Server;
  let redirectTo: string;

  beforeEach(async function () {
    server = await new GitTestServer().start();
    repository = server.createRepository('handbook');
    seed(repository);
    stateDir = temporaryDirectory();
    // Answers every request with a redirect to the same path on `redirectTo` (an origin).
    redirector = http.createServer((request, response) => {
      response.writeHead(302, { location: `${redirectTo}${request.url}` }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  });

  afterEach(async function () {
    redirector.close();
    await server.stop();
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  async function sync(provider: ConnectorProvider<GitSourceConfig>, url: string): Promise<ConnectorEvent[] | unknown> {
    const source = await provider.open(provider.sourceConfigSchema.parse({ url }), { sourceId: `s${Math.random()}` });
    const events: ConnectorEvent[] = [];
    try {
      for await (const event of source.sync(null, new AbortController().signal)) events.push(event);
      return events;
    } catch (error) {
      return error;
    }
  }

  const on = (url: string, host: string) => url.replace('127.0.0.1', host);

  it('refuses a repository on loopback by default, however written, and sends nothing', async function () {
    const provider = await initGit(stateDir, []);
    for (const host of ['127.0.0.1', 'localhost', '2130706433', '127.1']) {
      const error = await sync(provider, on(repository.url, host));
      expect(DocqaError.is(error, 'validation_failed'), `${host}: ${String(error)}`).to.equal(true);
      expect((error as Error).message, host).to.match(/^Refused to connect to \S+: \S+ is a loopback address\./);
      expect((error as Error).message, host).to.contain('the outboundAllow option of git');
    }
    expect(server.requests, 'no request reached the server').to.be.empty;
  });

  it('refuses a redirect from an allowed host to an address that is not allowed', async function () {
    const provider = await initGit(stateDir, ['localhost']);
    const redirectorOrigin = `http://localhost:${(redirector.address() as AddressInfo).port}`;
    const repositoryPath = new URL(repository.url).pathname;
    redirectTo = new URL(repository.url).origin;
    const refused = await sync(provider, `${redirectorOrigin}${repositoryPath}`);
    expect(DocqaError.is(refused, 'validation_failed'), String(refused)).to.equal(true);
    const host = new URL(repository.url).host;
    expect((refused as Error).message).to.contain(`Refused to connect to ${host}: 127.0.0.1 is a loopback address`);
    expect(server.requests, 'the redirect was not followed').to.be.empty;
    // The same redirect to a host the option allows is followed: the server answers the refs request.
    // (isomorphic-git then posts to the URL it was given, not the redirected one: no full sync here.)
    redirectTo = on(new URL(repository.url).origin, 'localhost');
    await sync(provider, `${redirectorOrigin}${repositoryPath}`);
    const answered = server.requests.map((r) => `${r.status} ${r.url}`);
    expect(answered).to.include(`200 ${repositoryPath}/info/refs?service=git-upload-pack`);
  });

  it('validates outboundAllow entries', function () {
    expect(pluginOptionsSchema.parse({}).outboundAllow).to.deep.equal([]);
    expect(pluginOptionsSchema.safeParse({ outboundAllow: ['git.internal', '192.168.0.0/16'] }).success).to.equal(true);
    expect(pluginOptionsSchema.safeParse({ outboundAllow: ['192.168.0.0/99'] }).success).to.equal(false);
  });
});
