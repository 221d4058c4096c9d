import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createTemporaryDatabase } from '@docqa/kernel/testing';
import { dockerDir, root, tempDir } from './tools.js';

/**
 * The packages `npm ci --omit=dev` installs, as npm itself resolves them from the lock file: the
 * top-level entries of node_modules among `npm ls --omit=dev --all`.
 */
function productionPackages(): string[] {
  const listed = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const prefix = path.join(root, 'node_modules') + path.sep;
  const names = new Set<string>();
  for (const line of listed.stdout.split('\n')) {
    if (!line.startsWith(prefix)) continue;
    const parts = line.slice(prefix.length).split(path.sep);
    names.add(parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!);
  }
  if (names.size < 50) throw new Error(`npm ls --omit=dev listed too few packages (${names.size}): ${listed.stderr}`);
  return [...names];
}

/**
 * node_modules of the runtime tree with only the production packages: the workspaces linked into
 * the tree itself (as npm links them), every other package linked to the checkout's installed copy.
 */
function linkProductionModules(app: string): void {
  for (const name of productionPackages()) {
    const target = path.join(app, 'node_modules', name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const installed = path.join(root, 'node_modules', name);
    const workspaceLink = fs.lstatSync(installed).isSymbolicLink() ? fs.readlinkSync(installed) : null;
    fs.symlinkSync(workspaceLink && !path.isAbsolute(workspaceLink) ? workspaceLink : installed, target);
  }
}

interface Served {
  child: ChildProcess;
  url: string;
  output(): string;
}

function serve(app: string, cwd: string, env: Record<string, string>): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--enable-source-maps', path.join(app, 'packages/server/dist/cli.js'), 'serve'],
      { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the runtime tree did not start in time:\n${output}`));
    }, 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /DocQA is listening on (http:\/\/[^"\s]+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url, output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the runtime tree exited with ${code} before listening:\n${output}`));
    });
  });
}

describe("deployment: the image's runtime tree (docker/assemble-runtime.sh) serves on production dependencies", function () {
  this.timeout(240_000);
  let dir: string;
  let app: string;
  let served: Served | undefined;
  let database: { url: string; drop(): Promise<void> } | null = null;

  before(function () {
    if (
      !fs.existsSync(path.join(root, 'packages/server/dist/cli.js')) ||
      !fs.existsSync(path.join(root, 'packages/web/dist/index.html'))
    ) {
      throw new Error('the runtime tree is assembled from the build: run npm run build first (npm test does)');
    }
    dir = tempDir('runtime-tree');
    app = path.join(dir, 'app');
    const assembled = spawnSync('sh', [path.join(dockerDir, 'assemble-runtime.sh'), root, app], { encoding: 'utf8' });
    expect(assembled.status, assembled.stderr).to.equal(0);
    linkProductionModules(app);
  });
  after(async () => {
    if (served && served.child.exitCode === null) served.child.kill('SIGKILL');
    await database?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('holds compiled code and the data files, and no sources or tests', () => {
    const files = fs
      .readdirSync(app, { recursive: true, encoding: 'utf8' })
      .filter((file) => !file.startsWith('node_modules'));
    expect(files).to.include.members([
      'package-lock.json',
      path.join('packages/core/models/catalogue.json'),
      path.join('packages/web/dist/index.html'),
      path.join('kernel/dist/index.js'),
      path.join('docker/healthcheck.mjs'),
    ]);
    expect(
      files.filter((file) => file.split(path.sep).includes('src')),
      'sources',
    ).to.deep.equal([]);
    expect(
      files.filter((file) => /\.test\.|\.d\.ts$/.test(file)),
      'tests and declarations',
    ).to.deep.equal([]);
  });

  it('starts in production mode with its secrets as files, and serves health, version, the web UI and a graceful stop', async () => {
    const work = path.join(dir, 'work');
    const secrets = path.join(dir, 'secrets');
    fs.mkdirSync(work);
    fs.mkdirSync(secrets);
    // The container's way: every secret a file under DOCQA_SECRETS_DIR, none in the environment.
    fs.writeFileSync(path.join(secrets, 'jwt_secret_key'), 'j'.repeat(64));
    fs.writeFileSync(path.join(secrets, 'mfa_encryption_key'), 'm'.repeat(64));
    fs.writeFileSync(path.join(secrets, 'default_admin_password'), 'an-admin-password-from-a-file');
    if (process.env.TEST_DATABASE_URL) {
      database = await createTemporaryDatabase(process.env.TEST_DATABASE_URL);
      fs.writeFileSync(path.join(secrets, 'database_url'), database.url);
    }
    served = await serve(app, work, {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      DOCQA_ENV: 'production',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DOCQA_DATA_DIR: path.join(dir, 'data'),
      DOCQA_SECRETS_DIR: secrets,
      CONNECTOR_ALLOWED_PATHS: work,
      SHUTDOWN_TIMEOUT_SECONDS: '5',
    });

    const health = await fetch(`${served.url}/api/health`);
    expect(health.status, served.output()).to.equal(200);
    const version = (await (await fetch(`${served.url}/api/version`)).json()) as { version: string };
    expect(version.version).to.equal(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version);
    const page = await fetch(`${served.url}/`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.include('text/html');
    const login = await fetch(`${served.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'an-admin-password-from-a-file' }),
    });
    expect(login.status, 'the admin password came from its secret file').to.equal(200);

    const exited = new Promise<number | null>((resolve) => served!.child.once('exit', (code) => resolve(code)));
    served.child.kill('SIGTERM');
    expect(await exited, served.output()).to.equal(0);
  });

  it('`docqa models list` reads the catalogue shipped in the tree', () => {
    const listed = spawnSync(process.execPath, [path.join(app, 'packages/server/dist/cli.js'), 'models', 'list'], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        DOCQA_DATA_DIR: path.join(dir, 'data'),
        DOCQA_SECRETS_DIR: path.join(dir, 'no-secrets'),
      },
      encoding: 'utf8',
    });
    expect(listed.status, listed.stderr).to.equal(0);
    expect(listed.stdout).to.include('qwen2.5-1.5b-instruct');
  });
});
