import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { definePreset } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import connectorTemplate from '@docqa/example-connector-template';
import { licenseStandIn } from '../testing/license-stand-in.js';
import { startServer, type RunningServer } from '../server.js';
import { standardPreset } from '../presets/standard.js';
import { withoutLicenseGate } from '../testing/standard-with-license.js';

type Json = Record<string, any>;

const license = licenseStandIn(() => ({
  plan: 'PRO',
  limits: { documents: null, fileSizeBytes: null, storageBytes: null },
}));

/**
 * One run-on paragraph with no sentence end: longer than a chunk may be, so chunking splits it
 * between words and the space at the split belongs to no chunk. "Region:" is the last word before
 * the first split and "EU" the first after it (a long paragraph is cut into pieces of the target,
 * 256 tokens, estimated at 1.3 a word: 196 words), which the test checks on the stored chunks.
 */
const wordsBeforeSplit = 196;
const body = [
  [...Array.from({ length: wordsBeforeSplit - 1 }, (_, i) => `word${i % 10}`), 'Region:', 'EU']
    .concat(Array.from({ length: 300 }, (_, i) => `tail${i % 10}`))
    .join(' '),
  'Closing paragraph of the policy, long enough to stand as a chunk of its own without merging.',
].join('\n\n');

describe('metadata refresh (#29 item 4): the rules see the full extracted text, as at indexing', function () {
  this.timeout(120_000);
  let server: RunningServer;
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;
  let admin: string;
  let sourceId: string;
  let indexed: { document: Json; chunks: Json[] };

  const call = async (method: string, route: string, payload?: unknown) => {
    const res = await fetch(server.url + route, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      body: payload === undefined ? null : JSON.stringify(payload),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
  };
  const waitJob = async (id: string) => {
    for (let i = 0; i < 600; i++) {
      const job = (await call('GET', `/api/jobs/${id}`)).body;
      if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('job did not finish');
  };
  const state = async () => {
    const document = ((await call('GET', '/api/docs')).body.items as Json[])[0]!;
    const { rows: chunks } = await server.kernel.db.query<Json>(
      'select text, metadata from chunk where document_id = $1 order by position',
      [document.id],
    );
    return { document, chunks };
  };
  const refresh = async () => {
    const job = await waitJob((await call('POST', `/api/metadata/${sourceId}/refresh`)).body.job_id);
    expect(job.status, JSON.stringify(job)).to.equal('succeeded');
    return job.result as Json;
  };
  const storedTexts = async () =>
    Number((await server.kernel.db.query<{ n: string }>('select count(*) as n from document_text')).rows[0]!.n);

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-refresh-'));
    const feed = path.join(dataDir, 'feed.jsonl');
    fs.writeFileSync(feed, JSON.stringify({ id: 'policy', title: 'Policy', body, updated_at: '2026-01-01T00:00:00Z' }));
    const database = process.env.TEST_DATABASE_URL
      ? await createTemporaryDatabase(process.env.TEST_DATABASE_URL)
      : null;
    drop = database?.drop;
    server = await startServer({
      env: {
        ...testSecrets,
        DOCQA_DATA_DIR: dataDir,
        DOCQA_SECRETS_DIR: dataDir,
        LOG_LEVEL: 'ERROR',
        DEFAULT_ADMIN_PASSWORD: 'admin-password-1',
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      cwd: dataDir,
      inMemoryDatabase: database === null,
      presets: {
        standard: definePreset({
          id: 'standard',
          description: 'test',
          plugins: (context) => [
            ...withoutLicenseGate(standardPreset.plugins(context)),
            { plugin: connectorTemplate },
            { plugin: license },
          ],
        }),
      },
      port: 0,
      host: '127.0.0.1',
    });
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin-password-1' }),
    });
    admin = ((await login.json()) as Json).access_token;
    sourceId = (
      await call('POST', '/api/integrations', { name: 'Policies', type: 'json-feed', config: { path: feed } })
    ).body.id;
    for (const rule of [
      { field_name: 'region', pattern: 'Region: (\\w+)', scope: 'full', level: 'document' },
      { field_name: 'zone', pattern: 'Region: (\\w+)', scope: 'full', level: 'chunk' },
    ])
      expect((await call('POST', `/api/metadata/${sourceId}/rules`, rule)).status).to.equal(201);
    await waitJob((await call('POST', `/api/integrations/${sourceId}/sync`)).body.job_id);
    for (let i = 0; i < 600 && (await state()).document?.status !== 'indexed'; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    indexed = await state();
  });
  after(async () => {
    await server?.stop();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('indexes a document whose chunks do not hold the text a rule matched', () => {
    expect(indexed.document.status).to.equal('indexed');
    expect(indexed.document.metadata).to.include({ region: 'EU' });
    expect(indexed.chunks.length).to.be.at.least(2);
    expect(indexed.chunks.some((chunk) => (chunk.text as string).includes('Region: EU'))).to.equal(false);
    expect(indexed.chunks[0]!.text).to.match(/Region:$/);
    expect(indexed.chunks.map((chunk) => chunk.metadata.zone)).to.deep.equal(indexed.chunks.map(() => 'EU'));
  });

  it('refresh gives the document and every chunk exactly the metadata indexing gave them', async () => {
    expect(await refresh()).to.deep.equal({ documents: 1, re_extracted: 0, from_chunks: 0 });
    const refreshed = await state();
    expect(refreshed.document.metadata).to.deep.equal(indexed.document.metadata);
    expect(refreshed.chunks).to.deep.equal(indexed.chunks);
  });

  it('a document indexed before its text was kept is extracted again from its bytes, and keeps its text from then on', async () => {
    const layout = async () =>
      (await server.kernel.db.query<{ layout: Json | null }>('select layout from document_text')).rows[0]?.layout;
    const indexedLayout = await layout();
    expect(indexedLayout?.sections).to.not.be.empty;
    await server.kernel.db.query('delete from document_text');
    expect(await refresh()).to.deep.equal({ documents: 1, re_extracted: 1, from_chunks: 0 });
    const refreshed = await state();
    expect(refreshed.document.metadata).to.deep.equal(indexed.document.metadata);
    expect(refreshed.chunks).to.deep.equal(indexed.chunks);
    expect(await storedTexts()).to.equal(1);
    // The text extracted again is kept with its section map, so GET /api/docs/{id}/content can serve it.
    expect(await layout()).to.deep.equal(indexedLayout);
  });

  it('without its text or its bytes, refresh falls back to the chunks and counts the document', async () => {
    await server.kernel.db.query('delete from document_text');
    const blob = server.services.documents.blobs.pathOf(indexed.document.content_hash as string);
    const moved = `${blob}.away`;
    fs.renameSync(blob, moved);
    try {
      expect(await refresh()).to.deep.equal({ documents: 1, re_extracted: 0, from_chunks: 1 });
      expect(await storedTexts()).to.equal(0);
    } finally {
      fs.renameSync(moved, blob);
    }
  });

  it('deleting the document deletes its kept text', async () => {
    await refresh();
    expect(await storedTexts()).to.equal(1);
    expect((await call('DELETE', `/api/docs/${indexed.document.id as string}`)).status).to.equal(204);
    expect(await storedTexts()).to.equal(0);
  });
});
