// `npm run generate -w @docqa/client` (part of `npm run build`): writes src/openapi.ts from the
// OpenAPI document the server's code builds.
import fs from 'node:fs';
import { readOpenApiDocument, renderTypes, typesFile } from './generate.js';

const text = await renderTypes(await readOpenApiDocument());
const current = fs.existsSync(typesFile) ? fs.readFileSync(typesFile, 'utf8') : null;
if (current !== text) {
  // CI builds what was committed: rewriting the file there would hide a stale client from the
  // staleness test (src/openapi.test.ts), which `npm test` runs after this build.
  if (process.env.CI && current !== null)
    process.stderr.write('packages/client/src/openapi.ts is stale (left as committed in CI): npm run build\n');
  // An unchanged file keeps its time stamp, so tsc -b does not rebuild what depends on it.
  else fs.writeFileSync(typesFile, text);
}
