// Response bodies are checked field by field, so a loose JSON type is enough here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it answers something truthy; fails naming `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

const terminal = ['succeeded', 'failed', 'cancelled'];

/** A signed-in client of one DocQA process's HTTP API. */
export class ApiClient {
  private constructor(
    readonly url: string,
    private readonly token: string,
  ) {}

  static async login(url: string, username: string, password: string): Promise<ApiClient> {
    const res = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    if (res.status !== 200) throw new Error(`login as ${username} answered ${res.status}: ${await res.text()}`);
    return new ApiClient(url, ((await res.json()) as Json).access_token as string);
  }

  /** The Authorization header's value, for requests this client does not make itself. */
  get authorization(): string {
    return `Bearer ${this.token}`;
  }

  async call(method: string, route: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const res = await fetch(this.url + route, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
  }

  /** Uploads text files (at most 20 a request, as the API allows); answers the created documents. */
  async upload(files: Array<{ name: string; text: string }>): Promise<Json[]> {
    const form = new FormData();
    for (const file of files) form.append('file', new Blob([file.text], { type: 'text/plain' }), file.name);
    const res = await fetch(`${this.url}/api/docs/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}` },
      body: form,
    });
    if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as Json).documents as Json[];
  }

  async job(id: string): Promise<Json> {
    return (await this.call('GET', `/api/jobs/${id}`)).body;
  }

  async waitForJob(id: string, timeoutMs = 120_000): Promise<Json> {
    return until(
      `job ${id} to finish`,
      async () => {
        const job = await this.job(id);
        return terminal.includes(job.status) ? job : null;
      },
      timeoutMs,
    );
  }

  /** Creates a filesystem connector over `dir` and answers its id. */
  async createConnector(name: string, dir: string): Promise<string> {
    const created = await this.call('POST', '/api/connectors', { name, type: 'filesystem', config: { path: dir } });
    if (created.status !== 201)
      throw new Error(`creating connector ${name} answered ${created.status}: ${JSON.stringify(created.body)}`);
    return created.body.id as string;
  }

  async scan(connectorId: string): Promise<string> {
    const started = await this.call('POST', `/api/connectors/${connectorId}/scan`);
    if (started.status !== 202) throw new Error(`scan answered ${started.status}: ${JSON.stringify(started.body)}`);
    return started.body.job_id as string;
  }
}
