import fs from 'node:fs';
import { expect } from 'chai';
import { readOpenApiDocument, renderTypes, typesFile } from './generate.js';

// Part of `npm test`, hence of CI: a route or schema changed without `npm run build` (which
// regenerates the types) leaves a client that no longer describes the API.
describe('@docqa/client: the committed types', function () {
  this.timeout(180_000);

  it('match the OpenAPI document the server builds (else: npm run generate -w @docqa/client)', async () => {
    const expected = await renderTypes(await readOpenApiDocument());
    const committed = fs.readFileSync(typesFile, 'utf8');
    if (committed !== expected) {
      const at = [...committed].findIndex((char, index) => char !== expected[index]);
      const line = committed.slice(0, at).split('\n').length;
      expect.fail(
        `packages/client/src/openapi.ts is stale from line ${line} on: run npm run generate -w @docqa/client`,
      );
    }
  });
});
