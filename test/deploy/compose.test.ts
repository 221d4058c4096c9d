import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { dockerDir, root, tempDir } from './tools.js';

/**
 * The Compose command here: Compose v2 (`docker compose`) when the plugin is installed, else
 * Debian's docker-compose 1.29. Neither needs a Docker engine for `config`. No Compose at all fails
 * the suite: the stack would otherwise go unchecked.
 */
function composeCommand(): string[] {
  if (spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' }).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0) return ['docker-compose'];
  throw new Error(
    'neither `docker compose` (Compose v2) nor `docker-compose` is installed, and the deployment tests need one: apt-get install docker-compose (.ci/run installs it)',
  );
}

/** A copy of the stack's files as an operator has them, so install.sh writes nowhere in the checkout. */
function copyStack(): { dir: string; stack: string } {
  const dir = tempDir('compose');
  const stack = path.join(dir, 'repo', 'docker');
  fs.mkdirSync(path.join(stack, 'nginx'), { recursive: true });
  for (const file of ['compose.yaml', 'install.sh', 'Dockerfile', 'nginx/render-nginx-conf.sh'])
    fs.copyFileSync(path.join(dockerDir, file), path.join(stack, file));
  fs.chmodSync(path.join(stack, 'install.sh'), 0o755);
  // As a copy without execute bits leaves it: install.sh must restore the one nginx's entrypoint needs.
  fs.chmodSync(path.join(stack, 'nginx/render-nginx-conf.sh'), 0o644);
  return { dir, stack };
}

function install(stack: string, args: string[] = []) {
  return spawnSync('sh', [path.join(stack, 'install.sh'), ...args], {
    cwd: stack,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
}

function compose(command: string[], stack: string, args: string[]) {
  // Only PATH: variables of the developer's shell must not stand in for the stack's .env.
  return spawnSync(command[0]!, [...command.slice(1), '-f', path.join(stack, 'compose.yaml'), ...args], {
    cwd: stack,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
  });
}

const readEnv = (stack: string): Record<string, string> =>
  Object.fromEntries(
    fs
      .readFileSync(path.join(stack, '.env'), 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

/** Each service's block of `compose config` output, by name (the two-space-indented keys under services:). */
function serviceBlocks(config: string): Record<string, string> {
  const section = config
    .slice(config.search(/^services:$/m))
    .split('\n')
    .slice(1);
  const blocks: Record<string, string> = {};
  let current: string | null = null;
  for (const line of section) {
    if (/^\S/.test(line)) break;
    const name = /^  ([A-Za-z0-9_-]+):$/.exec(line)?.[1];
    if (name) current = name;
    else if (current) blocks[current] = `${blocks[current] ?? ''}${line}\n`;
  }
  return blocks;
}

describe('deployment: the compose stack and its installer', function () {
  this.timeout(120_000);
  let command: string[];
  const dirs: string[] = [];

  before(() => {
    command = composeCommand();
  });
  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('install.sh writes .env and every secret (mode 600), prints the admin password once, and changes nothing when run again', () => {
    const { dir, stack } = copyStack();
    dirs.push(dir);
    const first = install(stack);
    expect(first.status, first.stderr).to.equal(0);
    const password = /Password:\s+(\S+)/.exec(first.stdout)?.[1];
    const secrets = path.join(stack, 'secrets');
    expect(password).to.be.a('string');
    expect(fs.readFileSync(path.join(secrets, 'default_admin_password'), 'utf8')).to.equal(password);
    expect(fs.statSync(secrets).mode & 0o777).to.equal(0o700);
    const names = fs.readdirSync(secrets).sort();
    expect(names).to.deep.equal([
      'database_url',
      'default_admin_password',
      'hosted_api_key',
      'jwt_secret_key',
      'license_key',
      'mfa_encryption_key',
      'postgres_password',
      'smtp_password',
      'vectordb_api_key',
    ]);
    for (const name of names) expect(fs.statSync(path.join(secrets, name)).mode & 0o777, name).to.equal(0o600);
    expect(fs.statSync(path.join(stack, '.env')).mode & 0o777).to.equal(0o600);
    const secret = (name: string) => fs.readFileSync(path.join(secrets, name), 'utf8');
    expect(secret('jwt_secret_key')).to.match(/^[0-9a-f]{64}$/);
    expect(secret('mfa_encryption_key'))
      .to.match(/^[0-9a-f]{64}$/)
      .and.not.equal(secret('jwt_secret_key'));
    expect(secret('database_url')).to.equal(`postgres://docqa:${secret('postgres_password')}@postgres:5432/docqa`);
    expect(secret('smtp_password')).to.equal('');
    expect(fs.statSync(path.join(stack, 'nginx/render-nginx-conf.sh')).mode & 0o111, 'renderer executable').to.equal(
      0o111,
    );
    // No secret in .env: it reaches every container's environment.
    const env = fs.readFileSync(path.join(stack, '.env'), 'utf8');
    for (const name of ['jwt_secret_key', 'mfa_encryption_key', 'postgres_password', 'default_admin_password'])
      expect(env).to.not.include(secret(name));
    expect(readEnv(stack)).to.include({
      TLS_ENABLED: '0',
      STACK_PORT: '3000',
      PUBLIC_URL: 'http://localhost:3000',
      INFERENCE_URL: '',
    });

    const before = Object.fromEntries(names.map((name) => [name, secret(name)]));
    fs.writeFileSync(path.join(secrets, 'smtp_password'), 'the operator filled this in');
    const envBefore = fs.readFileSync(path.join(stack, '.env'), 'utf8');
    const second = install(stack, ['--tls', 'docqa.example.com']);
    expect(second.status, second.stderr).to.equal(0);
    expect(second.stdout).to.not.include('Password:');
    expect(fs.readFileSync(path.join(stack, '.env'), 'utf8')).to.equal(envBefore);
    for (const name of names)
      expect(secret(name), name).to.equal(name === 'smtp_password' ? 'the operator filled this in' : before[name]);
  });

  it('`compose config` validates the stack as install.sh leaves it: api, worker, postgres and nginx by default', () => {
    const { dir, stack } = copyStack();
    dirs.push(dir);
    expect(install(stack).status).to.equal(0);
    const quiet = compose(command, stack, ['config', '-q']);
    expect(quiet.status, `${command.join(' ')} config: ${quiet.stderr}`).to.equal(0);
    const full = compose(command, stack, ['config']);
    expect(full.status, full.stderr).to.equal(0);
    // Compose v2 leaves services of inactive profiles out; 1.29 lists them with their profiles.
    const services = serviceBlocks(full.stdout);
    for (const name of ['api', 'worker', 'postgres', 'nginx']) {
      expect(services[name], name).to.be.a('string');
      expect(services[name], name).to.not.include('profiles:');
    }
    expect(services.inference ?? 'profiles:\n    - inference').to.match(/profiles:\n\s+- inference/);
    expect(services['http-redirect'] ?? 'profiles:\n    - tls').to.match(/profiles:\n\s+- tls/);
    expect(full.stdout).to.include('TRUST_PROXY: loopback, uniquelocal').and.include('DOCQA_ENV: production');
    // The database password reaches DocQA as a secret file, never as an environment value.
    expect(full.stdout).to.not.include(fs.readFileSync(path.join(stack, 'secrets', 'postgres_password'), 'utf8'));
  });

  it('with --tls and --inference the profiles add the port-80 redirect and the llama.cpp server, and INFERENCE_URL points at it', () => {
    const { dir, stack } = copyStack();
    dirs.push(dir);
    const installed = install(stack, ['--tls', 'docqa.example.com', '--inference']);
    expect(installed.status, installed.stderr).to.equal(0);
    expect(readEnv(stack)).to.include({
      TLS_ENABLED: '1',
      SERVER_NAME: 'docqa.example.com',
      STACK_PORT: '443',
      PUBLIC_URL: 'https://docqa.example.com',
      COMPOSE_PROFILES: 'tls,inference',
      INFERENCE_URL: 'http://inference:8080',
    });
    const quiet = compose(command, stack, ['config', '-q']);
    expect(quiet.status, quiet.stderr).to.equal(0);
    const services = compose(command, stack, ['config', '--services']);
    expect(services.stdout.trim().split('\n').sort()).to.deep.equal([
      'api',
      'http-redirect',
      'inference',
      'nginx',
      'postgres',
      'worker',
    ]);
    const full = compose(command, stack, ['config']).stdout;
    expect(full)
      .to.include('LLAMA_ARG_MODEL: /models/Qwen2.5-1.5B-Instruct-Q4_K_M.gguf')
      .and.include('INFERENCE_URL: http://inference:8080');
  });

  it('install.sh refuses a bad domain or port and writes nothing', () => {
    const { dir, stack } = copyStack();
    dirs.push(dir);
    const bad = install(stack, ['--tls', 'docqa.example.com;rm']);
    expect(bad.status).to.equal(1);
    expect(bad.stderr).to.include('is not a domain name');
    expect(install(stack, ['--port', '99999']).status).to.equal(1);
    expect(fs.existsSync(path.join(stack, '.env'))).to.equal(false);
    expect(fs.existsSync(path.join(stack, 'secrets'))).to.equal(false);
  });

  it('the image build copies only files that exist, and .dockerignore keeps secrets, .env and data out of the context', () => {
    const dockerfile = fs.readFileSync(path.join(dockerDir, 'Dockerfile'), 'utf8');
    for (const match of dockerfile.matchAll(/^COPY (?:--chmod=\S+ )?(?!--from)(\S+) \S+$/gm)) {
      if (match[1] === '.') continue;
      expect(fs.existsSync(path.join(root, match[1]!)), `COPY ${match[1]}`).to.equal(true);
    }
    // What goes into the runtime stage is docker/assemble-runtime.sh's, tested by runtime-tree.test.ts.
    expect(dockerfile)
      .to.include('RUN sh docker/assemble-runtime.sh /build /runtime')
      .and.include('COPY --from=build /runtime /app');
    const ignored = fs.readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).to.include.members(['.env', '**/.env', 'docker/secrets', 'data', '**/node_modules', '.git']);
    expect(dockerfile)
      .to.match(/^USER node$/m)
      .and.match(/^HEALTHCHECK .*healthcheck\.mjs/m)
      .and.match(/^FROM \$\{NODE_IMAGE\} AS runtime$/m);
    expect(dockerfile).to.include('ARG NODE_IMAGE=node:24-bookworm-slim').and.include('npm ci --omit=dev');
  });
});
