import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A page of the test site. */
export interface TestPage {
  body: string | Buffer;
  contentType: string;
  /** Answer slowly (milliseconds before the headers), to test timeouts and cancellation. */
  delayMs?: number;
}

export interface SeenRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  status: number;
  at: number;
}

export interface TestSiteOptions {
  /** Send ETag (and answer If-None-Match); default true. */
  etags?: boolean;
  /** Send Last-Modified (and answer If-Modified-Since); default true. */
  lastModified?: boolean;
  /** When set, every request must carry exactly this Authorization header (else 401). */
  requiredAuthorization?: string;
}

/**
 * A real HTTP site on 127.0.0.1 whose pages the test edits between syncs. It implements
 * conditional requests the way web servers do (a strong ETag from the bytes, Last-Modified per
 * page) and records every request, so tests can check what the crawler asked for.
 */
export class TestSite {
  readonly pages = new Map<string, TestPage>();
  readonly requests: SeenRequest[] = [];
  private readonly modifiedAt = new Map<string, Date>();
  private server: http.Server | undefined;
  origin = '';

  constructor(private readonly options: TestSiteOptions = {}) {}

  set(
    path: string,
    body: string | Buffer,
    contentType = 'text/html; charset=utf-8',
    extra: Partial<TestPage> = {},
  ): void {
    this.pages.set(path, { body, contentType, ...extra });
    // Whole seconds, as HTTP dates have; a change is always at least a second later than the last one.
    const previous = this.modifiedAt.get(path)?.getTime() ?? Date.UTC(2025, 0, 1);
    this.modifiedAt.set(path, new Date(Math.max(previous + 1000, Math.floor(Date.now() / 1000) * 1000)));
  }

  remove(path: string): void {
    this.pages.delete(path);
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  /** Requests for a path (without the query string), robots.txt and sitemaps included. */
  requestsFor(path: string): SeenRequest[] {
    return this.requests.filter((request) => request.path.split('?')[0] === path);
  }

  async start(): Promise<this> {
    this.server = http.createServer((request, response) => this.answer(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private answer(request: http.IncomingMessage, response: http.ServerResponse): void {
    const path = request.url ?? '/';
    const record = (status: number) => this.requests.push({ path, headers: request.headers, status, at: Date.now() });
    if (
      this.options.requiredAuthorization !== undefined &&
      request.headers.authorization !== this.options.requiredAuthorization
    ) {
      record(401);
      response.writeHead(401, { 'www-authenticate': 'Bearer' }).end('unauthorized');
      return;
    }
    const page = this.pages.get(path) ?? this.pages.get(path.split('?')[0]!);
    if (!page) {
      record(404);
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const etag = `"${crypto.createHash('sha1').update(page.body).digest('hex')}"`;
    const modified = this.modifiedAt.get(path) ?? this.modifiedAt.get(path.split('?')[0]!)!;
    const headers: Record<string, string> = { 'content-type': page.contentType };
    if (this.options.etags !== false) headers.etag = etag;
    if (this.options.lastModified !== false) headers['last-modified'] = modified.toUTCString();
    const ifNoneMatch = request.headers['if-none-match'];
    const ifModifiedSince = request.headers['if-modified-since'];
    // RFC 9110: If-None-Match wins over If-Modified-Since when both are sent.
    const notModified =
      this.options.etags !== false && ifNoneMatch !== undefined
        ? ifNoneMatch === etag
        : this.options.lastModified !== false && ifModifiedSince !== undefined && new Date(ifModifiedSince) >= modified;
    const send = () => {
      if (response.destroyed) return;
      if (notModified) {
        record(304);
        response.writeHead(304, headers).end();
      } else {
        record(200);
        response.writeHead(200, headers).end(page.body);
      }
    };
    if (page.delayMs) setTimeout(send, page.delayMs);
    else send();
  }
}

export function html(title: string, links: string[], extraHead = ''): string {
  return `<!doctype html><html><head><title>${title}</title>${extraHead}</head><body><h1>${title}</h1>${links
    .map((href) => `<a href="${href}">${href}</a>`)
    .join(' ')}<p>Some text about ${title}.</p></body></html>`;
}
