import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A real git smart-HTTP server on 127.0.0.1: node:http in front of `git http-backend` (CGI), over
 * bare repositories the test creates. Optionally checks HTTP Basic credentials, as a git host does.
 */
export class GitTestServer {
  readonly root = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-git-server-'));
  readonly requests: Array<{ url: string; authorization: string | undefined; status: number }> = [];
  private server: http.Server | undefined;
  origin = '';

  constructor(private readonly basicAuth?: { username: string; password: string }) {}

  async start(): Promise<this> {
    this.server = http.createServer((request, response) => this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    fs.rmSync(this.root, { recursive: true, force: true });
  }

  /** Creates a bare repository and a work tree that pushes to it through the file system. */
  createRepository(name: string): TestRepository {
    const bare = path.join(this.root, `${name}.git`);
    git(this.root, 'init', '--bare', '--initial-branch=main', bare);
    const work = path.join(this.root, `${name}-work`);
    git(this.root, 'init', '--initial-branch=main', work);
    git(work, 'remote', 'add', 'origin', bare);
    return new TestRepository(work, `${this.origin}/${name}.git`);
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const url = new URL(request.url ?? '/', this.origin);
    const record = (status: number) =>
      this.requests.push({ url: url.pathname + url.search, authorization: request.headers.authorization, status });
    if (this.basicAuth) {
      const expected = `Basic ${Buffer.from(`${this.basicAuth.username}:${this.basicAuth.password}`).toString('base64')}`;
      if (request.headers.authorization !== expected) {
        record(401);
        response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('authentication required');
        return;
      }
    }
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH ?? '',
        GIT_PROJECT_ROOT: this.root,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: request.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        ...(request.headers['content-length'] ? { CONTENT_LENGTH: request.headers['content-length'] } : {}),
        ...(request.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: request.headers['content-encoding'] } : {}),
        ...(request.headers['git-protocol'] ? { GIT_PROTOCOL: String(request.headers['git-protocol']) } : {}),
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    request.pipe(cgi.stdin);
    // A CGI response: header lines, a blank line, then the body. "Status:" gives the HTTP status.
    let head = Buffer.alloc(0);
    let headersSent = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) {
        response.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n') >= 0 ? head.indexOf('\r\n\r\n') : head.indexOf('\n\n');
      if (end < 0) return;
      const separatorLength = head[end] === 0x0d ? 4 : 2;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      record(status);
      response.writeHead(status, headers);
      headersSent = true;
      response.write(head.subarray(end + separatorLength));
    });
    cgi.on('close', () => {
      if (!headersSent) response.writeHead(502).end('git http-backend failed');
      else response.end();
    });
    cgi.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
  }
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 't@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: os.tmpdir(),
    },
  }).trim();
}

/** A work tree whose commits the test pushes to the served bare repository. */
export class TestRepository {
  constructor(
    readonly work: string,
    readonly url: string,
  ) {}

  write(file: string, content: string | Buffer): this {
    fs.mkdirSync(path.dirname(path.join(this.work, file)), { recursive: true });
    fs.writeFileSync(path.join(this.work, file), content);
    return this;
  }

  remove(file: string): this {
    git(this.work, 'rm', '-q', file);
    return this;
  }

  move(from: string, to: string): this {
    fs.mkdirSync(path.dirname(path.join(this.work, to)), { recursive: true });
    git(this.work, 'mv', from, to);
    return this;
  }

  /** Commits everything and pushes the branch (checked out, or created, first). Answers the commit oid. */
  commit(message: string, branch = 'main', force = false): string {
    git(this.work, 'add', '-A');
    git(this.work, 'commit', '-q', '--allow-empty', '-m', message);
    git(this.work, 'push', '-q', ...(force ? ['--force'] : []), 'origin', `HEAD:refs/heads/${branch}`);
    return git(this.work, 'rev-parse', 'HEAD');
  }

  run(...args: string[]): string {
    return git(this.work, ...args);
  }
}
