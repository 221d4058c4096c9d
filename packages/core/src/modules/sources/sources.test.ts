import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { z } from 'zod';
import { definePlugin, DocqaError, type ConnectorProvider } from '@docqa/plugin-api';
import { startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { sourcesTokens, type SourceService } from './contract.js';
import { sourcesModule } from './index.js';

// A connector that opens only directories under one root, as the filesystem plugin checks its roots.
const folders = (root: string) =>
  definePlugin({
    apiVersion: 1,
    kind: 'connector',
    id: 'connector-test-folders',
    configSchema: z.object({}),
    deps: {},
    init: (): ConnectorProvider<{ path: string }> => ({
      type: 'folders',
      displayName: 'Folders',
      sourceKind: 'connector',
      sourceConfigSchema: z.strictObject({ path: z.string() }),
      secretFields: [],
      capabilities: { incremental: false, deletions: false, acls: false },
      open: async (config) => {
        if (!config.path.startsWith(root + path.sep))
          throw new DocqaError('validation_failed', 'outside the allowed roots', {
            errors: [{ field: 'path', message: 'is outside the allowed roots' }],
          });
        return { sync: async function* () {} };
      },
    }),
  });

// An integration with a secret field; it syncs nothing.
const tokenFeed = definePlugin({
  apiVersion: 1,
  kind: 'connector',
  id: 'integration-token-feed',
  configSchema: z.object({}),
  deps: {},
  init: (): ConnectorProvider<{ url: string; token?: string }> => ({
    type: 'token-feed',
    displayName: 'Feed with a token',
    sourceKind: 'integration',
    sourceConfigSchema: z.strictObject({ url: z.string(), token: z.string().optional() }),
    secretFields: ['token'],
    capabilities: { incremental: false, deletions: false, acls: false },
    open: async () => ({ sync: async function* () {} }),
  }),
});

// The documents' table as the sources' migration 0007 alters it; in the product the documents make it.
const documentsStandIn = {
  id: 'test-documents',
  deps: {},
  provides: {},
  migrations: [
    {
      name: '0004_test_document',
      up: [
        `create table document (id uuid primary key, source_type text not null, source_id text null,
          content_hash text not null)`,
        'create unique index document_source_content on document (source_type, content_hash)',
      ],
    },
  ],
  init: () => ({}),
};

describe('sources module (without the HTTP server)', function () {
  this.timeout(60_000);
  let kernel: TestKernel;
  let sources: SourceService;
  let root: string;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-sources-'));
    fs.mkdirSync(path.join(root, 'handbook'));
    kernel = await startTestModules({
      modules: [documentsStandIn, sourcesModule],
      plugins: [
        { plugin: folders(root), options: {} },
        { plugin: tokenFeed, options: {} },
      ],
    });
    sources = kernel.resolve(sourcesTokens.service);
  });
  after(async () => {
    await kernel.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('stores a connector whose config the plugin opens, and refuses a name taken or a path outside', async () => {
    const created = await sources.create('connector', {
      name: 'Handbook',
      type: 'folders',
      config: { path: path.join(root, 'handbook') },
      enabled: true,
    });
    expect(created).to.include({ kind: 'connector', type: 'folders', name: 'Handbook', enabled: true });
    const again = {
      name: 'handbook',
      type: 'folders',
      config: { path: path.join(root, 'handbook') },
      enabled: true,
    };
    expect(DocqaError.is(await sources.create('connector', again).catch((e: unknown) => e), 'conflict')).to.equal(true);
    const outside = await sources
      .create('connector', { ...again, name: 'Elsewhere', config: { path: os.tmpdir() } })
      .catch((error: unknown) => error);
    expect(DocqaError.is(outside, 'validation_failed')).to.equal(true);
    expect((outside as DocqaError).errors?.[0]?.field).to.equal('body.config.path');
    expect((await sources.list('connector', 10, 0)).total).to.equal(1);
    expect(await sources.list('integration', 10, 0)).to.deep.equal({ items: [], total: 0 });
  });

  it('names the available types when a type is unknown', () => {
    const unknown = (() => {
      try {
        return sources.provider('connector', 'ftp');
      } catch (error) {
        return error;
      }
    })();
    expect(DocqaError.is(unknown, 'validation_failed')).to.equal(true);
    expect((unknown as DocqaError).message).to.contain('available: folders');
  });

  it('seals secrets at rest, shows them as "***", keeps one left out and clears an explicit null', async () => {
    const input = {
      name: 'Tickets',
      type: 'token-feed',
      config: { url: 'https://example.org', token: 's3cr3t' },
      enabled: true,
    };
    const created = await sources.create('integration', input);
    const { rows } = await kernel.db.query<{ secrets: string }>('select secrets from source where id = $1', [
      created.id,
    ]);
    expect(rows[0]!.secrets).to.be.a('string').and.not.contain('s3cr3t');
    expect(sources.fullConfig(created)).to.deep.equal({ url: 'https://example.org', token: 's3cr3t' });
    expect((await sources.present(created)).config).to.deep.equal({ url: 'https://example.org', token: '***' });
    const renamed = await sources.update('integration', created.id, {
      ...input,
      name: 'Desk',
      config: { url: 'https://example.org' },
    });
    expect(sources.secretsOf(renamed)).to.deep.equal({ token: 's3cr3t' });
    const cleared = await sources.update('integration', created.id, {
      ...input,
      config: { url: 'https://example.org', token: null },
    });
    expect(sources.secretsOf(cleared)).to.deep.equal({});
    await sources.delete('integration', created.id);
    expect(await sources.byId(created.id)).to.equal(null);
  });
});
