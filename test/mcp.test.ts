import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { baseEnv, runCli, serveCli, type ServingCli } from './support/cli.js';
import { ApiClient, type Json } from './support/api.js';
import { databaseEnv } from './support/database.js';
import { usePlanFile } from './support/plan-stand-in.js';

const adminPassword = 'admin-password-1';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cliSource = path.join(root, 'packages/server/src/cli.ts');
const tsxLoader = import.meta.resolve('tsx');

/**
 * The MCP server end to end: a real `docqa serve` on loopback (ENTERPRISE, for group grants),
 * personal API keys from the API, and the SDK's own client, over Streamable HTTP and over stdio
 * through `docqa mcp`.
 */
describe('MCP server (end to end, the MCP SDK client over HTTP and stdio)', function () {
  this.timeout(300_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-e2e-mcp-'));
  let database: Awaited<ReturnType<typeof databaseEnv>>;
  let server: ServingCli;
  let admin: ApiClient;
  const documents: Record<string, string> = {};
  const keys: Record<string, Json> = {};
  const userIds: Record<string, string> = {};
  const clients: Client[] = [];

  const connect = async (transport: Transport, onerror?: (error: Error) => void) => {
    const client = new Client({ name: 'docqa-test', version: '1.0.0' });
    if (onerror) client.onerror = onerror;
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const overHttp = (key: string) =>
    connect(
      new StreamableHTTPClientTransport(new URL('/api/mcp', server.url), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }) as Transport,
    );
  /** What the stdio clients saw that was not protocol: a line on stdout that is not JSON-RPC is one. */
  const stdioErrors: Error[] = [];
  const overStdio = async (args: string[], env: Record<string, string>) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', tsxLoader, '--conditions=docqa-source', cliSource, 'mcp', ...args],
      env: baseEnv(env),
      cwd: dir,
      stderr: 'pipe',
    });
    // Drained so the child never blocks on a full pipe; what it says there is free-form.
    transport.stderr?.on('data', () => undefined);
    return connect(transport, (error) => stdioErrors.push(error));
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  /** A successful tool result's structured answer. */
  const result = async (client: Client, name: string, args: Record<string, unknown>) => {
    const answer = await call(client, name, args);
    expect(answer.isError, JSON.stringify(answer.content)).to.not.equal(true);
    expect(JSON.parse((answer.content[0] as { text: string }).text)).to.deep.equal(answer.structuredContent);
    return answer.structuredContent as Json;
  };
  const toolError = async (client: Client, name: string, args: Record<string, unknown>) => {
    const answer = await call(client, name, args);
    expect(answer.isError, JSON.stringify(answer.content)).to.equal(true);
    return (answer.content[0] as { text: string }).text;
  };
  const httpStatus = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      expect(error, String(error)).to.be.instanceOf(StreamableHTTPError);
      return (error as StreamableHTTPError).code;
    }
    throw new Error('expected the request to fail');
  };
  const documentIds = (items: Json[]) => items.map((item) => item.document_id as string);

  before(async () => {
    database = await databaseEnv();
    const plan = usePlanFile(dir, { plan: 'ENTERPRISE' });
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
    // A busy machine may take more than the default minute to start the embedded database.
    const serveEnv = baseEnv({ ...env, ...plan.env, ...database.env });
    server = await serveCli({ cwd: dir, env: serveEnv, timeoutMs: 180_000 });
    admin = await ApiClient.login(server.url, 'admin', adminPassword);
    // Long enough for several pages: 45 paragraphs of about 300 tokens make 45 chunks or so.
    const paragraph = (n: number) => `Section ${n}. ${'The archive keeps every record for audit. '.repeat(40)}`;
    const manual = Array.from({ length: 45 }, (_, n) => paragraph(n + 1)).join('\n\n');
    const uploaded = await admin.upload([
      { name: 'merger.txt', text: 'Confidential merger plan: the acquisition of Zephyr Corporation closes in March.' },
      {
        name: 'handbook.txt',
        text:
          'Employee handbook: every employee gets twenty-five days of paid holiday a year. ' +
          'Unused days carry over until the end of March.',
      },
      { name: 'archive-manual.txt', text: manual },
    ]);
    for (const document of uploaded) {
      expect((await admin.waitForJob(document.job_id as string)).status).to.equal('succeeded');
      documents[document.filename as string] = document.id as string;
    }
    const finance = (await admin.call('POST', '/api/groups', { name: 'Finance' })).body.id as string;
    for (const [name, role] of [
      ['fiona', 'editor'],
      ['eddie', 'editor'],
      ['vera', 'viewer'],
      ['gone', 'viewer'],
    ] as const) {
      const user = await admin.call('POST', '/api/auth/users', {
        username: name,
        password: `${name}-password-1`,
        role,
      });
      userIds[name] = user.body.id as string;
      if (name === 'fiona') await admin.call('PUT', `/api/groups/${finance}/members/${user.body.id as string}`);
      const session = await ApiClient.login(server.url, name, `${name}-password-1`);
      keys[name] = (await session.call('POST', '/api/auth/api-keys', { name: `${name}'s assistant` })).body;
    }
    const grant = await admin.call('PUT', `/api/access/document/${documents['merger.txt']}`, { group_ids: [finance] });
    expect(grant.status).to.equal(200);
    keys.writeOnly = (await admin.call('POST', '/api/auth/api-keys', { name: 'uploader', scopes: ['write'] })).body;
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await server?.stop('SIGTERM');
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists the four tools with their input schemas, and says who it is', async () => {
    const client = await overHttp(keys.eddie!.key);
    expect(client.getServerVersion()).to.include({ name: 'docqa' });
    expect(client.getInstructions()).to.include('ask');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).to.deep.equal(['search', 'ask', 'list_documents', 'get_document']);
    const search = tools.find((tool) => tool.name === 'search')!;
    expect(search.inputSchema.required).to.deep.equal(['query']);
    expect(search.inputSchema.properties).to.have.all.keys('query', 'top_k', 'filters');
    expect(search.annotations).to.include({ readOnlyHint: true });
  });

  it('search returns the uploaded document, with a link to its resource', async () => {
    const client = await overHttp(keys.eddie!.key);
    const answer = await call(client, 'search', { query: 'paid holiday days', top_k: 3 });
    const found = answer.structuredContent as Json;
    expect(found.items[0]).to.include({ document_id: documents['handbook.txt'], title: 'handbook.txt' });
    expect(found.items[0].text).to.include('twenty-five days of paid holiday');
    // The chunk's language travels to chat's answerer only, as POST /api/search leaves it out.
    expect(found.items[0]).to.not.have.property('language');
    // Where the passage is, as POST /api/search says it: a plain text file has no headings, sheet or rows.
    const location = found.items[0].location as Json;
    expect(location).to.deep.include({ heading_path: [], sheet: null, row_start: null, row_end: null });
    expect(location.char_end - location.char_start).to.equal(found.items[0].text.length);
    expect(found.retrieval_settings).to.include({ top_k: 3 });
    const link = answer.content.find((block) => block.type === 'resource_link') as Json;
    expect(link).to.include({ uri: `docqa://documents/${documents['handbook.txt']}`, name: 'handbook.txt' });
    const filtered = await result(client, 'search', {
      query: 'March',
      filters: { document_ids: [documents['archive-manual.txt']] },
    });
    expect(documentIds(filtered.items)).to.not.include(documents['handbook.txt']);
  });

  it('search takes a source filter (source_type, source_id) as POST /api/search does', async () => {
    const client = await overHttp(keys.eddie!.key);
    const { tools } = await client.listTools();
    const filters = (tools.find((tool) => tool.name === 'search')!.inputSchema.properties as Json).filters as Json;
    expect(filters.properties).to.include.all.keys('source_type', 'source_id');
    const query = 'paid holiday days';
    const uploads = await result(client, 'search', { query, filters: { source_type: 'upload' } });
    expect(documentIds(uploads.items)).to.include(documents['handbook.txt']);
    expect(uploads.retrieval_settings.filters).to.include({ source_type: 'upload' });
    // Every document here is an upload: none comes from a connector, nor from a source that does not exist.
    const connectors = await result(client, 'search', { query, filters: { source_type: 'connector' } });
    expect(connectors.items).to.deep.equal([]);
    const unknown = await result(client, 'search', {
      query,
      filters: { source_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.items).to.deep.equal([]);
    const rest = await (
      await ApiClient.login(server.url, 'eddie', 'eddie-password-1')
    ).call('POST', '/api/search', {
      query,
      filters: { source_type: 'connector' },
    });
    expect(rest.body.items).to.deep.equal([]);
    expect(await toolError(client, 'search', { query, filters: { source_type: 'mailbox' } })).to.include('source_type');
  });

  it('ask answers from the documents with sources, and follows up in the same conversation', async () => {
    const client = await overHttp(keys.eddie!.key);
    const first = await result(client, 'ask', { question: 'How many days of paid holiday does an employee get?' });
    expect(first.answer).to.include('twenty-five days of paid holiday');
    expect(first.sources[0]).to.include({ index: 1, document_id: documents['handbook.txt'] });
    expect(first.sources[0].location).to.include.all.keys('heading_path', 'page_start', 'char_start', 'char_end');
    const conversation = first.conversation_id as string;
    const next = await result(client, 'ask', {
      question: 'Do unused days carry over?',
      conversation_id: conversation,
    });
    expect(next.conversation_id).to.equal(conversation);
    expect(next.answer).to.include('carry over');
    const session = await ApiClient.login(server.url, 'eddie', 'eddie-password-1');
    const saved = await session.call('GET', `/api/conversations/${conversation}`);
    expect(saved.status).to.equal(200);
  });

  it('lists documents a page at a time and reads a long one page by page', async () => {
    const client = await overHttp(keys.fiona!.key);
    const all = await result(client, 'list_documents', {});
    expect(all.total).to.equal(3);
    const page = await result(client, 'list_documents', { limit: 2, offset: 2, source: 'upload' });
    expect(page).to.include({ total: 3, limit: 2, offset: 2 });
    expect(page.items).to.have.length(1);
    expect(page.items[0].uri).to.equal(`docqa://documents/${page.items[0].id as string}`);
    const elsewhere = await result(client, 'list_documents', { source: 'connector' });
    expect(elsewhere.total).to.equal(0);

    const id = documents['archive-manual.txt']!;
    const first = await result(client, 'get_document', { id });
    expect(first.document).to.include({ id, filename: 'archive-manual.txt', status: 'indexed' });
    expect(first.pages).to.be.greaterThan(1);
    expect(first).to.include({ page: 1, chunks: 20 });
    let text = first.text as string;
    for (let n = 2; n <= (first.pages as number); n++)
      text += `\n\n${(await result(client, 'get_document', { id, page: n })).text as string}`;
    const manual = Array.from({ length: 45 }, (_, n) => `Section ${n + 1}. `);
    for (const heading of manual) expect(text).to.include(heading);
    expect(text.match(/Section \d+\./g)).to.have.length(45);
    const past = await toolError(client, 'get_document', { id, page: (first.pages as number) + 1 });
    expect(past).to.include(`page must be from 1 to ${first.pages as number}`);
    const unknown = await toolError(client, 'get_document', { id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown).to.include('was not found').and.include('[not_found]');
    expect(await toolError(client, 'get_document', { id: 'not-an-id' })).to.include('Invalid');
  });

  it('serves the indexed documents as resources: list with a cursor, read as text', async () => {
    const client = await overHttp(keys.fiona!.key);
    const { resources, nextCursor } = await client.listResources();
    expect(nextCursor).to.equal(undefined);
    const byUri = new Map(resources.map((resource) => [resource.uri, resource]));
    expect(byUri.get(`docqa://documents/${documents['handbook.txt']}`)).to.include({
      name: 'handbook.txt',
      mimeType: 'text/plain',
    });
    expect(resources).to.have.length(3);
    const { resourceTemplates } = await client.listResourceTemplates();
    try {
      await client.listResources({ cursor: 'x' });
      expect.fail('a cursor resources/list did not give must be refused');
    } catch (error) {
      expect(String(error)).to.include('is not a cursor');
    }
    expect(resourceTemplates.map((template) => template.uriTemplate)).to.deep.equal(['docqa://documents/{id}']);
    const read = await client.readResource({ uri: `docqa://documents/${documents['handbook.txt']}` });
    expect(read.contents[0]).to.include({ mimeType: 'text/plain' });
    expect((read.contents[0] as { text: string }).text).to.include('Unused days carry over until the end of March.');
    try {
      await client.readResource({ uri: 'docqa://documents/00000000-0000-4000-8000-000000000000' });
      expect.fail('an unknown document must not be read');
    } catch (error) {
      expect(String(error)).to.include('was not found');
    }
  });

  it("never reaches documents the key's user's groups do not grant: search, ask, list, get, resources", async () => {
    const merger = documents['merger.txt']!;
    const outsider = await overHttp(keys.eddie!.key);
    const searched = await result(outsider, 'search', { query: 'Zephyr acquisition merger' });
    expect(documentIds(searched.items)).to.not.include(merger);
    expect(JSON.stringify(searched)).to.not.include('Zephyr');
    const asked = await result(outsider, 'ask', { question: 'When does the Zephyr acquisition close?' });
    expect(documentIds(asked.sources)).to.not.include(merger);
    expect(asked.answer).to.not.include('Zephyr');
    const listed = await result(outsider, 'list_documents', { limit: 100 });
    expect(listed.items.map((item: Json) => item.id)).to.not.include(merger);
    expect(listed.total).to.equal(2);
    expect(await toolError(outsider, 'get_document', { id: merger })).to.include('was not found');
    const { resources } = await outsider.listResources();
    expect(resources.map((resource) => resource.uri)).to.not.include(`docqa://documents/${merger}`);
    try {
      await outsider.readResource({ uri: `docqa://documents/${merger}` });
      expect.fail("a document outside the user's groups must not be read");
    } catch (error) {
      expect(String(error)).to.include('was not found').and.not.include('Zephyr');
    }

    const member = await overHttp(keys.fiona!.key);
    const found = await result(member, 'search', { query: 'Zephyr acquisition merger' });
    expect(documentIds(found.items)).to.include(merger);
    const answered = await result(member, 'ask', { question: 'When does the Zephyr acquisition close?' });
    expect(answered.answer).to.include('Zephyr');
    expect((await result(member, 'get_document', { id: merger })).text).to.include('Zephyr');
  });

  it("a viewer's key searches; a key without the read scope and a deleted user's key are refused", async () => {
    const viewer = await overHttp(keys.vera!.key);
    expect(documentIds((await result(viewer, 'search', { query: 'paid holiday' })).items)).to.include(
      documents['handbook.txt'],
    );
    expect(await httpStatus(overHttp(keys.writeOnly!.key))).to.equal(403);
    expect(await httpStatus(overHttp(`docqa_${'x'.repeat(43)}`))).to.equal(401);
    const doomed = await overHttp(keys.gone!.key);
    expect((await doomed.listTools()).tools).to.have.length(4);
    expect((await admin.call('DELETE', `/api/auth/users/${userIds.gone!}`)).status).to.equal(204);
    expect(await httpStatus(doomed.callTool({ name: 'search', arguments: { query: 'holiday' } }))).to.equal(401);
    expect(await httpStatus(overHttp(keys.gone!.key))).to.equal(401);
  });

  it('takes an access token as well as a key', async () => {
    const session = await ApiClient.login(server.url, 'fiona', 'fiona-password-1');
    const client = await overHttp(session.authorization.slice('Bearer '.length));
    const found = await result(client, 'search', { query: 'Zephyr acquisition merger' });
    expect(documentIds(found.items)).to.include(documents['merger.txt']);
  });

  it('a revoked key gets 401 within a second', async () => {
    const session = await ApiClient.login(server.url, 'fiona', 'fiona-password-1');
    const key = (await session.call('POST', '/api/auth/api-keys', { name: 'to revoke' })).body;
    const client = await overHttp(key.key as string);
    expect((await result(client, 'search', { query: 'holiday' })).items).to.not.be.empty;
    const revokedAt = Date.now();
    expect((await session.call('DELETE', `/api/auth/api-keys/${key.id as string}`)).status).to.equal(204);
    expect(await httpStatus(client.callTool({ name: 'search', arguments: { query: 'holiday' } }))).to.equal(401);
    expect(await httpStatus(client.listResources())).to.equal(401);
    expect(Date.now() - revokedAt).to.be.below(1000);
  });

  it('answers bad arguments and unknown tools as MCP errors, never a 5xx', async () => {
    const client = await overHttp(keys.eddie!.key);
    expect(await toolError(client, 'search', { query: '   ' })).to.include('must not be empty');
    expect(await toolError(client, 'search', { query: 'x', top_k: 1000 })).to.include('top_k');
    expect(await toolError(client, 'list_documents', { source: 'mailbox' })).to.include('source');
    expect(await toolError(client, 'ask', { question: 'Hi?', conversation_id: 'nope' })).to.include('conversation_id');
    expect(await toolError(client, 'delete_everything', {})).to.include('delete_everything');
    const headers = { authorization: `Bearer ${keys.eddie!.key as string}`, 'content-type': 'application/json' };
    const get = await fetch(`${server.url}/api/mcp`, { headers });
    expect(get.status).to.equal(405);
    const notRpc = await fetch(`${server.url}/api/mcp`, { method: 'POST', headers, body: '{"hello":1}' });
    expect(notRpc.status).to.equal(422);
    const noAccept = await fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(noAccept.status).to.equal(406);
    // `ask` answers as an event stream (keep-alive comments while it works), everything else as JSON.
    const rpc = { ...headers, accept: 'application/json, text/event-stream' };
    const post = (name: string, args: Json) =>
      fetch(`${server.url}/api/mcp`, {
        method: 'POST',
        headers: rpc,
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }),
      });
    const searched = await post('search', { query: 'holiday' });
    expect(searched.headers.get('content-type')).to.match(/^application\/json/);
    expect(((await searched.json()) as Json).result.isError).to.equal(undefined);
    const asked = await post('ask', { question: 'How many days of paid holiday does an employee get?' });
    expect(asked.headers.get('content-type')).to.match(/^text\/event-stream/);
    const events = await asked.text();
    expect(events).to.match(/^event: message$/m);
    expect(events).to.match(/^data: \{.*"result".*twenty-five days/m);
  });

  it('takes 50 concurrent search calls through one key without an error', async () => {
    const session = await ApiClient.login(server.url, 'eddie', 'eddie-password-1');
    // A fresh key: its rate limit's burst (60) holds the handshake and the 50 calls.
    const key = (await session.call('POST', '/api/auth/api-keys', { name: 'burst' })).body;
    const client = await overHttp(key.key as string);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => call(client, 'search', { query: 'paid holiday', top_k: 2 })),
    );
    expect(answers.filter((answer) => answer.isError)).to.deep.equal([]);
  });

  it('is described in the OpenAPI document', async () => {
    const document = (await (await fetch(`${server.url}/docs/openapi.json`)).json()) as Json;
    expect(document.paths['/api/mcp'].post).to.include({ operationId: 'mcp' });
  });

  describe('over stdio: docqa mcp', () => {
    it('runs the same tools and resources through the HTTP endpoint, printing only protocol', async () => {
      const client = await overStdio(['--url', server.url], { DOCQA_API_KEY: keys.eddie!.key as string });
      expect(client.getServerVersion()).to.include({ name: 'docqa' });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).to.deep.equal(['search', 'ask', 'list_documents', 'get_document']);
      const found = await result(client, 'search', { query: 'paid holiday days' });
      expect(found.items[0]).to.include({ document_id: documents['handbook.txt'] });
      const asked = await result(client, 'ask', { question: 'How many days of paid holiday does an employee get?' });
      expect(asked.answer).to.include('twenty-five days');
      const listed = await result(client, 'list_documents', { limit: 1 });
      expect(listed).to.include({ total: 2, limit: 1 });
      const page = await result(client, 'get_document', { id: documents['archive-manual.txt'], page: 2 });
      expect(page.page).to.equal(2);
      expect(await toolError(client, 'get_document', { id: documents['merger.txt'] })).to.include('not found');
      const { resources } = await client.listResources();
      expect(resources).to.have.length(2);
      const read = await client.readResource({ uri: resources[0]!.uri });
      expect((read.contents[0] as { text: string }).text.length).to.be.greaterThan(0);
      expect(stdioErrors).to.deep.equal([]);
    });

    it('tells a revoked key, or a server it cannot reach, as a tool error', async () => {
      const session = await ApiClient.login(server.url, 'eddie', 'eddie-password-1');
      const key = (await session.call('POST', '/api/auth/api-keys', { name: 'desktop' })).body;
      const client = await overStdio(['--url', server.url, '--key', key.key as string], {});
      expect((await result(client, 'search', { query: 'holiday' })).items).to.not.be.empty;
      expect((await session.call('DELETE', `/api/auth/api-keys/${key.id as string}`)).status).to.equal(204);
      const refused = await toolError(client, 'search', { query: 'holiday' });
      expect(refused).to.include('answered 401').and.include('revoked');

      const offline = await overStdio([], { DOCQA_API_KEY: 'docqa_x', DOCQA_URL: 'http://127.0.0.1:9' });
      expect(await toolError(offline, 'search', { query: 'x' })).to.include('could not be reached');
      expect(stdioErrors).to.deep.equal([]);
    });

    it('refuses to start without a URL and a key, on stderr', async () => {
      const missing = await runCli(['mcp'], { cwd: dir, env: baseEnv() });
      expect(missing.code).to.equal(2);
      expect(missing.stdout).to.equal('');
      expect(missing.stderr).to.include('DOCQA_API_KEY');
    });
  });
});
