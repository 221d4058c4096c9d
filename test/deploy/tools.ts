import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const dockerDir = path.join(root, 'docker');
export const renderer = path.join(dockerDir, 'nginx/render-nginx-conf.sh');

/**
 * The deployment tests check the real tools (Debian's nginx, openssl, docker-compose), so a
 * machine without one fails them with what to install: a skipped check would look like a pass.
 */
export function requireTool(command: string, debianPackage: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  const where = found.stdout.trim();
  // Debian puts nginx in /usr/sbin, which is not on every user's PATH.
  if ((found.status !== 0 || where === '') && fs.existsSync(`/usr/sbin/${command}`)) return `/usr/sbin/${command}`;
  if (found.status !== 0 || where === '') {
    throw new Error(
      `${command} is not installed, and the deployment tests need it: apt-get ` +
        `install ${debianPackage} (.ci/run installs it)`,
    );
  }
  return where;
}

export function tempDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `docqa-deploy-${name}-`));
  // nginx's workers drop root to nobody: they must reach the prefix's temp and log paths.
  fs.chmodSync(dir, 0o755);
  return dir;
}

/** A port nobody listens on right now, on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Rendered {
  status: number | null;
  stderr: string;
  /** The written configuration; null when the renderer refused. */
  config: string | null;
}

/** Runs the stack's renderer with only these variables (plus PATH), as the nginx container does. */
export function render(output: string, env: Record<string, string>, flags: string[] = ['--standalone']): Rendered {
  fs.rmSync(output, { force: true });
  const result = spawnSync('sh', [renderer, ...flags, output], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return {
    status: result.status,
    stderr: result.stderr,
    config: fs.existsSync(output) ? fs.readFileSync(output, 'utf8') : null,
  };
}

/** `nginx -t` on a standalone configuration, with everything under `prefix`. */
export function nginxTest(prefix: string, config: string): { ok: boolean; output: string } {
  fs.mkdirSync(path.join(prefix, 'temp'), { recursive: true });
  const result = spawnSync(requireTool('nginx', 'nginx'), ['-t', '-p', `${prefix}/`, '-c', config], {
    encoding: 'utf8',
  });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

/** A self-signed certificate for `name`, made with the openssl command line. */
export function selfSignedCertificate(dir: string, name: string): { cert: string; key: string } {
  const cert = path.join(dir, 'fullchain.pem');
  const key = path.join(dir, 'privkey.pem');
  const result = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      `subjectAltName=DNS:${name}`,
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`openssl could not make a certificate: ${result.stderr}`);
  return { cert, key };
}

export interface RunningNginx {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts nginx in the foreground (`daemon off`) as a child of the test, with the configuration
 * rendered for `prefix`, and waits until `port` accepts connections.
 */
export async function startNginx(prefix: string, config: string, port: number): Promise<RunningNginx> {
  fs.mkdirSync(path.join(prefix, 'temp'), { recursive: true });
  const child = spawn(requireTool('nginx', 'nginx'), ['-p', `${prefix}/`, '-c', config, '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`nginx exited with ${child.exitCode}: ${output}${readIfExists(path.join(prefix, 'error.log'))}`);
    if (await accepts(port)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not listen on ${port} in time: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    output: () => `${output}${readIfExists(path.join(prefix, 'error.log'))}`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGTERM: nginx's fast shutdown, which does not wait for open streams.
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function readIfExists(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
