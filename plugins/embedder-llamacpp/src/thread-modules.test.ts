import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const compiledThread = pathToFileURL(fileURLToPath(new URL('../dist/embedding-thread.js', import.meta.url))).href;

describe('embedder-llamacpp: the modules the embedding thread loads', function () {
  this.timeout(60_000);

  it("loads DocqaError alone, not the plugin API's index with zod and the rest", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-embedding-thread-modules-'));
    try {
      // Every module the import resolves, as Node's resolver hands it over (the compiled thread,
      // which npm test builds first, as the server runs it).
      const list = path.join(dir, 'loaded.txt');
      fs.writeFileSync(
        path.join(dir, 'hooks.mjs'),
        `import fs from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  fs.appendFileSync(${JSON.stringify(list)}, resolved.url + '\\n');
  return resolved;
}`,
      );
      fs.writeFileSync(
        path.join(dir, 'child.mjs'),
        `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)});
// Outside a worker thread the module throws once its imports are resolved and evaluated.
await import(${JSON.stringify(compiledThread)}).catch(() => undefined);`,
      );
      await promisify(execFile)(process.execPath, [path.join(dir, 'child.mjs')], { cwd: dir });
      const loaded = fs.readFileSync(list, 'utf8').split('\n');
      // An empty list would be a broken hook, not a lean thread.
      expect(loaded.some((url) => url.endsWith('/plugin-api/dist/errors.js'))).to.equal(true);
      // Each V8 isolate compiles and keeps what it imports: the index, with zod, cost the thread about 7 MB.
      const heavy = loaded.filter((url) => /\/plugin-api\/dist\/index\.js$|\/node_modules\/zod\//.test(url));
      expect(heavy.slice(0, 3)).to.deep.equal([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
