import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cliSource = path.join(root, 'packages/server/src/cli.ts');
// Resolved here, since the child runs in a temporary directory where 'tsx' cannot be found.
const tsxLoader = import.meta.resolve('tsx');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Only what DocQA needs, so the developer's own environment cannot leak into a test. */
export function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    DOCQA_SECRETS_DIR: '/nonexistent-secrets',
    ...extra,
  };
}

function spawnCli(args: string[], options: { cwd: string; env: Record<string, string> }): ChildProcess {
  // The real command, run from source like every other test (tsx), with the workspace's source exports.
  return spawn(process.execPath, ['--import', tsxLoader, '--conditions=docqa-source', cliSource, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function runCli(
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, options);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`docqa ${args.join(' ')} did not finish in time\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface ServingCli {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `docqa serve` (with `args`, such as `--role worker`) and waits for its "listening" log line. */
export function serveCli(options: {
  cwd: string;
  env: Record<string, string>;
  args?: string[];
  timeoutMs?: number;
}): Promise<ServingCli> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(['serve', ...(options.args ?? [])], options);
    let output = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`docqa serve did not start in time\n${output}`));
    }, options.timeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /DocQA is listening on (http:\/\/[^"\s]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({
          url: match[1],
          child,
          output: () => output,
          stop: (signal = 'SIGTERM') => {
            child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    exited
      .then((code) => {
        clearTimeout(timer);
        reject(new Error(`docqa serve exited with ${code} before listening\n${output}`));
      })
      .catch(reject);
  });
}
