import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { definePreset, providerTokens } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import { licenseStandIn } from '../testing/license-stand-in.js';
import { writeTinyBertEmbeddingModel } from '@docqa/plugin-testkit';
import { startServer, type RunningServer } from '../server.js';
import { standardPreset } from '../presets/standard.js';
import { withoutLicenseGate } from '../testing/standard-with-license.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const proLicense = licenseStandIn(() => ({
  plan: 'PRO',
  limits: { documents: 10_000, fileSizeBytes: 100 * 1024 * 1024, storageBytes: 1024 ** 3 },
}));

const paragraph =
  'Photosynthesis converts light energy into chemical energy stored in glucose molecules inside plant cells.';

async function samples(dir: string): Promise<Array<{ name: string; bytes: Buffer; expect: string }>> {
  const docx = await Packer.toBuffer(
    new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Docx Heading', heading: HeadingLevel.HEADING_1 }),
            new Paragraph(`Word says: ${paragraph}`),
          ],
        },
      ],
    }),
  );
  const pdf = await PDFDocument.create();
  const page = pdf.addPage();
  page.drawText(`PDF says: ${paragraph.slice(0, 60)}`, {
    x: 40,
    y: 700,
    size: 11,
    font: await pdf.embedFont(StandardFonts.Helvetica),
  });
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Plants');
  sheet.addRow(['Plant', 'Fact']);
  sheet.addRow(['Fern', `Excel says: ${paragraph}`]);
  const xlsxPath = path.join(dir, 'plants.xlsx');
  await workbook.xlsx.writeFile(xlsxPath);
  return [
    {
      name: 'notes.txt',
      bytes: Buffer.from(
        `Text says: ${paragraph}\n\nSecond paragraph about chlorophyll and the Calvin cycle in the stroma.`,
      ),
      expect: 'Text says',
    },
    {
      name: 'guide.md',
      bytes: Buffer.from(`# Markdown Guide\n\nMarkdown says: ${paragraph}\n`),
      expect: 'Markdown says',
    },
    {
      name: 'page.html',
      bytes: Buffer.from(
        `<html><head><title>Html Page</title></head><body><h1>Html</h1><p>HTML says: ${paragraph}</p><script>ignored()</script></body></html>`,
      ),
      expect: 'HTML says',
    },
    { name: 'facts.csv', bytes: Buffer.from(`topic,fact\nplants,"CSV says: ${paragraph}"\n`), expect: 'CSV says' },
    { name: 'report.docx', bytes: Buffer.from(docx), expect: 'Word says' },
    { name: 'paper.pdf', bytes: Buffer.from(await pdf.save()), expect: 'PDF says' },
    { name: 'plants.xlsx', bytes: fs.readFileSync(xlsxPath), expect: 'Excel says' },
  ];
}

describe('ingestion pipeline (end to end)', function () {
  let server: RunningServer;
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;
  let admin: string;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-ingest-'));
    const model = await writeTinyBertEmbeddingModel(path.join(dataDir, 'tiny-embedder.gguf'), { dimensions: 32 });
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
        EMBEDDING_MODEL_PATH: model.path,
        INDEX_EXTRACTION_WORKERS: '2',
        RAG_MIN_CHUNK_LENGTH: '20',
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      cwd: dataDir,
      inMemoryDatabase: database === null,
      presets: {
        standard: definePreset({
          id: 'standard',
          description: 'standard + PRO license',
          plugins: (context) => [...withoutLicenseGate(standardPreset.plugins(context)), { plugin: proLicense }],
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
  });
  after(async () => {
    await server?.stop();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('indexes every format into chunks and vectors', async () => {
    const files = await samples(dataDir);
    const form = new FormData();
    for (const file of files) form.append('file', new Blob([file.bytes]), file.name);
    const res = await fetch(`${server.url}/api/docs/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.status).to.equal(202);
    const uploaded = ((await res.json()) as Json).documents as Json[];
    const deadline = Date.now() + 60_000;
    let documents: Json[] = [];
    while (Date.now() < deadline) {
      documents = (
        (await (
          await fetch(`${server.url}/api/docs?limit=50`, { headers: { authorization: `Bearer ${admin}` } })
        ).json()) as Json
      ).items;
      if (documents.every((d) => d.status === 'indexed' || d.status === 'failed')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(documents.map((d) => [d.filename, d.status, d.error])).to.have.deep.members(
      files.map((f) => [f.name, 'indexed', null]),
    );
    for (const file of files) {
      const document = uploaded.find((d) => d.filename === file.name) as Json;
      const { rows } = await server.kernel.db.query<{ text: string }>(
        'select text from chunk where document_id = $1 order by position',
        [document.id],
      );
      expect(rows.map((row) => row.text).join(' '), file.name).to.include(file.expect);
    }
    const store = server.kernel.resolve(providerTokens.vectorStore);
    const { rows } = await server.kernel.db.query<{ n: string }>('select count(*) as n from chunk');
    expect(await store.count()).to.equal(Number(rows[0]?.n));
    const markdown = documents.find((d) => d.filename === 'guide.md') as Json;
    expect(markdown.title).to.equal('Markdown Guide');
  });

  it('a corrupt file fails its document with a clear error, and the worker carries on', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('%PDF-1.7 this is not really a pdf')]), 'broken.pdf');
    form.append(
      'file',
      new Blob([Buffer.from('A healthy text file that still gets indexed after the broken one.')]),
      'healthy.txt',
    );
    await fetch(`${server.url}/api/docs/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${admin}` },
    });
    const deadline = Date.now() + 30_000;
    let byName = new Map<string, Json>();
    while (Date.now() < deadline) {
      const items = (
        (await (
          await fetch(`${server.url}/api/docs?limit=50`, { headers: { authorization: `Bearer ${admin}` } })
        ).json()) as Json
      ).items as Json[];
      byName = new Map(items.map((d) => [d.filename, d]));
      if (['broken.pdf', 'healthy.txt'].every((name) => ['indexed', 'failed'].includes(byName.get(name)?.status)))
        break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(byName.get('broken.pdf')).to.include({ status: 'failed' });
    expect(byName.get('broken.pdf')?.error).to.include('broken.pdf');
    expect(byName.get('healthy.txt')?.status).to.equal('indexed');
  });

  it('reports index statistics and rebuilds the index as a job', async () => {
    const get = async (route: string) =>
      (await (await fetch(server.url + route, { headers: { authorization: `Bearer ${admin}` } })).json()) as Json;
    const before = await get('/api/index/stats');
    const { rows } = await server.kernel.db.query<{ n: string }>(`select count(*) as n from chunk`);
    expect(before.chunks).to.equal(Number(rows[0]?.n));
    expect(before.documents.indexed).to.be.at.least(8);
    expect(before.documents.failed).to.equal(1);
    expect(before.embedded_chunks).to.equal(before.chunks);
    expect(before.embedding_spaces).to.deep.equal([{ model: 'tiny-embedder', dimensions: 32, count: before.chunks }]);
    expect(before.index_size_bytes).to.be.greaterThan(0);
    expect(Date.parse(before.last_update)).to.be.greaterThan(0);

    const started = await fetch(`${server.url}/api/index/rebuild`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(started.status).to.equal(202);
    const jobId = ((await started.json()) as Json).job_id as string;
    const deadline = Date.now() + 60_000;
    let job = await server.kernel.jobs.get('rebuild', jobId);
    while (job?.state !== 'succeeded' && job?.state !== 'failed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      job = await server.kernel.jobs.get('rebuild', jobId);
    }
    expect(job?.state).to.equal('succeeded');
    expect(job?.output).to.deep.equal({ reindexed: before.documents.indexed, failed: 1 });
    const after = await get('/api/index/stats');
    expect(after.chunks).to.equal(before.chunks);
    expect(after.embedded_chunks).to.equal(before.embedded_chunks);
  });
});
