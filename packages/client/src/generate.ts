// Renders src/openapi.ts, the types of DocQA's HTTP API, from the OpenAPI document the server's code
// builds. Used by `npm run generate` (part of `npm run build`) and by the test that fails when the
// committed file is stale; openapi-typescript is a dev dependency, so nothing at run time imports this.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const typesFile = path.join(root, 'packages/client/src/openapi.ts');

const header = `// Generated from DocQA's OpenAPI document by openapi-typescript: do not edit.
// \`npm run generate -w @docqa/client\` (part of \`npm run build\`) writes it again; openapi.test.ts
// fails when it no longer matches the document the server's code builds.
/* eslint-disable */
`;

/**
 * The document as \`docqa openapi\` prints it, run from source: the build needs it before anything is
 * compiled, and a separate process keeps the server's modules out of this package (the server
 * depends on the client, for \`docqa ask\`).
 */
export async function readOpenApiDocument(): Promise<OpenAPI3> {
  const cli = path.join(root, 'packages/server/src/cli.ts');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--conditions=docqa-source', cli, 'openapi'],
    { cwd: root, maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' } },
  );
  return JSON.parse(stdout) as OpenAPI3;
}

/** The text of src/openapi.ts for a document. */
export async function renderTypes(document: OpenAPI3): Promise<string> {
  const nodes = await openapiTS(document, { silent: true });
  return header + astToString(nodes);
}
