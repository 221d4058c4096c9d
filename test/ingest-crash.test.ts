import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { writeTinyBertEmbeddingModel } from '@docqa/plugin-testkit';
import { baseEnv, serveCli, type ServingCli } from './support/cli.js';
import { databaseEnv, inspectDatabase } from './support/database.js';

const documentCount = 30;
const words =
  'cell membrane protein enzyme energy light water carbon nitrogen root leaf stem seed flower soil river ocean cloud rain wind'.split(
    ' ',
  );

/** A Markdown file of about 20 chunks: sections of paragraphs, different in every file. */
function documentText(index: number): string {
  const lines = [`# Report ${index}`, ''];
  for (let section = 0; section < 7; section += 1) {
    lines.push(`## Part ${section} of report ${index}`, '');
    for (let paragraph = 0; paragraph < 5; paragraph += 1) {
      lines.push(
        Array.from(
          { length: 80 },
          (_, word) => words[(index * 7 + section * 5 + paragraph * 3 + word * word) % words.length],
        ).join(' ') + '.',
        '',
      );
    }
  }
  return lines.join('\n');
}

interface DocumentState {
  id: string;
  filename: string;
  status: string;
  error: string | null;
  chunk_count: number;
}

/** Per document: its chunk rows and vector rows, as stored. */
interface StoredCounts {
  filename: string;
  status: string;
  chunkCount: number;
  chunks: number;
  distinctChunks: number;
  vectors: number;
}

describe('ingestion survives a killed server (end to end)', function () {
  this.timeout(600_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-e2e-crash-'));
  const files = Array.from({ length: documentCount }, (_, index) => ({
    name: `report-${String(index).padStart(2, '0')}.md`,
    text: documentText(index),
  }));
  let modelPath = '';
  const started: ServingCli[] = [];
  const databases: Array<Awaited<ReturnType<typeof databaseEnv>>> = [];

  before(async () => {
    modelPath = (await writeTinyBertEmbeddingModel(path.join(dir, 'tiny-bert.gguf'), { dimensions: 32 })).path;
    // One embedding thread: the standard preset's default (4) spins against itself on a small, busy machine.
    fs.writeFileSync(
      path.join(dir, 'docqa.config.json'),
      JSON.stringify({ configure: { 'embedder-llamacpp': { threads: 1 } } }),
    );
  });
  after(async () => {
    for (const server of started)
      if (server.child.exitCode === null && server.child.signalCode === null) await server.stop('SIGKILL');
    for (const database of databases) await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** One installation: its data directory and database, and how to start its server. */
  async function installation(name: string) {
    const database = await databaseEnv();
    databases.push(database);
    const dataDir = path.join(dir, name);
    const env = baseEnv({
      JWT_SECRET_KEY: 'j'.repeat(48),
      MFA_ENCRYPTION_KEY: 'm'.repeat(48),
      DOCQA_DATA_DIR: dataDir,
      PORT: '0',
      BACKEND_WORKERS: '1',
      DEFAULT_ADMIN_PASSWORD: 'admin-password-1',
      EMBEDDING_MODEL_PATH: modelPath,
      ...database.env,
    });
    return {
      dataDir,
      url: database.url,
      async start() {
        const server = await serveCli({ cwd: dir, env, timeoutMs: 120_000 });
        started.push(server);
        const login = await fetch(`${server.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: 'admin-password-1' }),
        });
        const token = ((await login.json()) as { access_token: string }).access_token;
        const documents = async (): Promise<DocumentState[]> => {
          const res = await fetch(`${server.url}/api/docs?limit=500`, {
            headers: { authorization: `Bearer ${token}` },
          });
          return ((await res.json()) as { items: DocumentState[] }).items;
        };
        return { server, token, documents };
      },
    };
  }

  async function uploadAll(url: string, token: string): Promise<void> {
    for (let start = 0; start < files.length; start += 10) {
      const form = new FormData();
      for (const file of files.slice(start, start + 10)) form.append('file', new Blob([file.text]), file.name);
      const res = await fetch(`${url}/api/docs/upload`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status, await res.clone().text()).to.equal(202);
    }
  }

  async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 300_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await check();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  const settled = (documents: DocumentState[]) =>
    documents.length === files.length &&
    documents.every((document) => document.status === 'indexed' || document.status === 'failed');

  /** Chunk and vector rows per document, read from the database itself (the embedded one after its server stopped). */
  async function storedCounts(target: {
    url: string | null;
    dataDir: string;
  }): Promise<{ documents: StoredCounts[]; orphanChunks: number; orphanVectors: number }> {
    return inspectDatabase(target, async ({ pool }) => {
      const { rows } = await pool.query<{
        filename: string;
        status: string;
        chunk_count: number;
        chunks: string;
        distinct_chunks: string;
        vectors: string;
      }>(`
        select d.filename, d.status, d.chunk_count,
          (select count(*) from chunk c where c.document_id = d.id) as chunks,
          (select count(distinct c.id) from chunk c where c.document_id = d.id) as distinct_chunks,
          (select count(*) from vector_embedding v where v.document_id = d.id::text) as vectors
        from document d order by d.filename, d.id`);
      const orphanChunks = (
        await pool.query<{ n: string }>(
          'select count(*) as n from chunk c where not exists (select 1 from document d where d.id = c.document_id)',
        )
      ).rows[0]!.n;
      const orphanVectors = (
        await pool.query<{ n: string }>(
          'select count(*) as n from vector_embedding v where not exists (select 1 from document d where d.id::text = v.document_id)',
        )
      ).rows[0]!.n;
      const documents = rows.map((row) => ({
        filename: row.filename,
        status: row.status,
        chunkCount: Number(row.chunk_count),
        chunks: Number(row.chunks),
        distinctChunks: Number(row.distinct_chunks),
        vectors: Number(row.vectors),
      }));
      return { documents, orphanChunks: Number(orphanChunks), orphanVectors: Number(orphanVectors) };
    });
  }

  it('SIGKILL mid-ingest, then a restart: every document once, indexed in full or failed, as a clean ingest indexes it', async () => {
    // A clean ingest of the same files: the reference.
    const clean = await installation('clean');
    const first = await clean.start();
    await uploadAll(first.server.url, first.token);
    const cleanDocuments = await waitFor('the clean ingest', async () => {
      const documents = await first.documents();
      return settled(documents) ? documents : undefined;
    });
    expect(
      cleanDocuments
        .filter((document) => document.status !== 'indexed')
        .map((document) => `${document.filename}: ${document.error}`),
      'the clean ingest indexes every file',
    ).to.deep.equal([]);
    expect(await first.server.stop('SIGTERM')).to.equal(0);
    const reference = await storedCounts(clean);
    const expectedChunks = new Map(reference.documents.map((document) => [document.filename, document.chunks]));
    expect(
      [...expectedChunks.values()].every((chunks) => chunks > 5),
      'every file makes several chunks',
    ).to.equal(true);

    // The same files again, killed with SIGKILL while some are indexed and others are still waiting or indexing.
    const crashed = await installation('crashed');
    const victim = await crashed.start();
    await uploadAll(victim.server.url, victim.token);
    const atKill = await waitFor('some documents indexed, some not', async () => {
      const documents = await victim.documents();
      const indexed = documents.filter((document) => document.status === 'indexed').length;
      return indexed >= 3 && indexed <= files.length - 5 ? documents : undefined;
    });
    victim.server.child.kill('SIGKILL');
    await new Promise((resolve) => victim.server.child.once('exit', resolve));
    const statusesAtKill = atKill.reduce<Record<string, number>>(
      (counts, document) => ({ ...counts, [document.status]: (counts[document.status] ?? 0) + 1 }),
      {},
    );
    console.log(`      killed with ${JSON.stringify(statusesAtKill)}`);

    // Started again on the same data directory and database: interrupted jobs are retried once their heartbeat lapses.
    const revived = await crashed.start();
    const after = await waitFor('every document indexed or failed after the restart', async () => {
      const documents = await revived.documents();
      return settled(documents) ? documents : undefined;
    });
    expect(after.map((document) => document.filename).sort(), 'each file exactly once').to.deep.equal(
      files.map((file) => file.name).sort(),
    );
    for (const document of after) {
      if (document.status === 'failed')
        expect(document.error, `${document.filename} failed without saying why`).to.be.a('string').and.not.equal('');
      else expect(document.chunk_count, document.filename).to.equal(expectedChunks.get(document.filename));
    }
    expect(await revived.server.stop('SIGTERM')).to.equal(0);

    // No half-indexed document: the stored chunks and vectors of each are all of them, or none.
    const stored = await storedCounts(crashed);
    expect(stored.orphanChunks, 'chunks of no document').to.equal(0);
    expect(stored.orphanVectors, 'vectors of no document').to.equal(0);
    for (const document of stored.documents) {
      const expected = document.status === 'indexed' ? expectedChunks.get(document.filename) : 0;
      expect(
        { ...document, chunkCount: document.status === 'indexed' ? document.chunkCount : 0 },
        document.filename,
      ).to.deep.equal({
        filename: document.filename,
        status: document.status,
        chunkCount: expected,
        chunks: expected,
        distinctChunks: expected,
        vectors: expected,
      });
    }
  });
});
