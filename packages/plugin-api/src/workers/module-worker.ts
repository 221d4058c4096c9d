import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * A small young generation for worker threads: a worker handles one document at a time, and V8's
 * default (up to 48 MB per thread, resident once used) made the extraction and rule workers most of
 * the native memory of an ingesting server (bench:ingest on PGlite, 208,659 chunks: 219 MB of it,
 * 165 MB with 6 MB, no slower). It only makes short-lived garbage collected more often; what a
 * worker may hold in all is not limited, so a large document still gets the memory it needs.
 */
export const workerLimits: ResourceLimits = { maxYoungGenerationSizeMb: 6 };

/**
 * Starts a worker thread running the module at `url` (a sibling `.js` file, as `import.meta.url`
 * names it), with the small young generation above unless `resourceLimits` says otherwise.
 * Compiled, that file exists. From TypeScript source (tests under tsx) it is a `.ts` file,
 * and Node 20 does not carry tsx's module hooks into worker threads even though the worker inherits
 * `--import tsx`, so a tiny bootstrap registers tsx inside the worker first.
 */
export function startModuleWorker(url: URL, resourceLimits: ResourceLimits = workerLimits): Worker {
  if (!url.pathname.endsWith('.ts') && !import.meta.url.endsWith('.ts')) return new Worker(url, { resourceLimits });
  const entry = url.href.replace(/\.js$/, '.ts');
  // tsx may run this file as CommonJS, where import.meta.resolve is missing; require.resolve finds the
  // CommonJS build of tsx/esm/api, whose ESM twin (the one that registers correctly) sits beside it.
  const tsxApiCommonJs = createRequire(import.meta.url).resolve('tsx/esm/api');
  const tsxApi = pathToFileURL(tsxApiCommonJs.replace(/\.cjs$/, '.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
}
