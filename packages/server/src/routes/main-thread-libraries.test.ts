import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const serverPackage = fileURLToPath(new URL('../../', import.meta.url));
const compiled = (relative: string) => pathToFileURL(path.join(serverPackage, relative)).href;

/**
 * A server in a process of its own (this one has sharp loaded by other tests): started, then given
 * a Markdown file, then a PDF, reporting after each whether libvips is mapped in the process.
 */
const child = `
import fs from 'node:fs';
import { testSecrets } from '${compiled('../../kernel/dist/testing/test-kernel.js')}';
import { startServer } from '${compiled('dist/server.js')}';
const libvips = () => fs.readFileSync('/proc/self/maps', 'utf8').includes('libvips');
const dir = process.env.CHILD_DIR;
const server = await startServer({ env: { ...testSecrets, DOCQA_DATA_DIR: dir, DOCQA_SECRETS_DIR: dir, LOG_LEVEL: 'ERROR', DEFAULT_ADMIN_PASSWORD: 'admin-password-1' }, cwd: dir, inMemoryDatabase: true, port: 0, host: '127.0.0.1' });
const report = { started: libvips() };
const login = await fetch(server.url + '/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin-password-1' }) });
const token = (await login.json()).access_token;
for (const name of ['notes.md', 'paper.pdf']) {
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(dir + '/' + name)]), name);
  const res = await fetch(server.url + '/api/docs/upload', { method: 'POST', body: form, headers: { authorization: 'Bearer ' + token } });
  const id = (await res.json()).documents[0].id;
  for (let status = ''; status !== 'indexed'; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = (await server.kernel.db.query('select status, error from document where id = $1', [id])).rows[0].status;
    if (status === 'failed') throw new Error(name + ' failed');
  }
  report[name] = libvips();
}
await server.stop();
console.log(JSON.stringify(report));
`;

describe('native libraries in the main thread', function () {
  this.timeout(120_000);

  it('loads sharp (libvips) only when the first file that needs it is extracted, before the worker does', async function () {
    if (!fs.existsSync('/proc/self/maps')) this.skip();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-main-thread-'));
    try {
      fs.writeFileSync(path.join(dir, 'notes.md'), '# Notes\n\nPlain text needs no image library.\n');
      const pdf = await PDFDocument.create();
      pdf.addPage().drawText('A PDF page with a text layer.', {
        x: 40,
        y: 700,
        size: 12,
        font: await pdf.embedFont(StandardFonts.Helvetica),
      });
      fs.writeFileSync(path.join(dir, 'paper.pdf'), await pdf.save());
      // The compiled server (npm test builds it first), as operators run it.
      fs.writeFileSync(path.join(dir, 'child.mjs'), child);
      const { stdout } = await promisify(execFile)(process.execPath, [path.join(dir, 'child.mjs')], {
        cwd: dir,
        env: { ...process.env, CHILD_DIR: dir },
      });
      const report = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, boolean>;
      // The PDF extractor's worker module loads sharp; the main thread must hold it from then on.
      expect(report).to.deep.equal({ started: false, 'notes.md': false, 'paper.pdf': true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a server on the defaults loads no library of a backend, provider or protocol it was not configured for', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-lazy-libraries-'));
    try {
      // Every module the process loads, as Node's resolver hands it over.
      fs.writeFileSync(
        path.join(dir, 'hooks.mjs'),
        `import fs from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  fs.appendFileSync(${JSON.stringify(path.join(dir, 'loaded.txt'))}, resolved.url + '\\n');
  return resolved;
}`,
      );
      fs.writeFileSync(
        path.join(dir, 'register.mjs'),
        `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)});`,
      );
      fs.writeFileSync(
        path.join(dir, 'child.mjs'),
        `import { testSecrets } from '${compiled('../../kernel/dist/testing/test-kernel.js')}';
import { startServer } from '${compiled('dist/server.js')}';
const dir = process.env.CHILD_DIR;
const env = { ...testSecrets, DOCQA_DATA_DIR: dir, DOCQA_SECRETS_DIR: dir, LOG_LEVEL: 'ERROR' };
const server = await startServer({ env, cwd: dir, inMemoryDatabase: true, port: 0, host: '127.0.0.1' });
await (await fetch(server.url + '/api/health')).text();
await server.stop();`,
      );
      await promisify(execFile)(
        process.execPath,
        ['--import', path.join(dir, 'register.mjs'), path.join(dir, 'child.mjs')],
        {
          cwd: dir,
          env: { ...process.env, CHILD_DIR: dir },
        },
      );
      const loaded = fs.readFileSync(path.join(dir, 'loaded.txt'), 'utf8').split('\n');
      // The hook sees the server's own modules, so an empty list would be a broken hook, not a lean server.
      expect(loaded.some((url) => url.includes('/server/dist/server.js'))).to.equal(true);
      // Each is tens of MB resident (docs/operations.md, Memory): loaded by the plugin or route that uses it.
      // node-llama-cpp: no local model on the defaults (a local embedder loads it in its own thread).
      const lazy = [
        '/openai/',
        '/nodemailer/',
        '/isomorphic-git/',
        '/@aws-sdk/',
        '/@modelcontextprotocol/',
        '/node-llama-cpp/',
      ];
      expect(lazy.filter((library) => loaded.some((url) => url.includes(`/node_modules${library}`)))).to.deep.equal([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
