import { parentPort } from 'node:worker_threads';
import { splitWorkerModule, type ExtractedDocument, type ExtractorInput } from '@docqa/plugin-api';

/** One extraction request: which extractor module to use and what to read. */
export interface ExtractionRequest {
  id: number;
  workerModule: string;
  input: ExtractorInput;
}

/** Errors cross the thread as plain data; the pool rebuilds a DocqaError from code and message. */
export type ExtractionReply =
  { id: number; document: ExtractedDocument } | { id: number; error: { code: string | null; message: string } };

type ExtractModule = {
  extract(input: ExtractorInput, signal?: AbortSignal, options?: unknown): Promise<ExtractedDocument>;
};
const modules = new Map<string, Promise<ExtractModule>>();

parentPort?.on('message', (request: ExtractionRequest) => {
  (async () => {
    try {
      // The plugin's options (its limits) ride in the URL's query; the module is loaded once without them.
      const { moduleUrl, options } = splitWorkerModule(request.workerModule);
      let module = modules.get(moduleUrl);
      if (!module) {
        module = import(moduleUrl) as Promise<ExtractModule>;
        modules.set(moduleUrl, module);
      }
      const document = await (await module).extract(request.input, undefined, options);
      parentPort?.postMessage({ id: request.id, document } satisfies ExtractionReply);
    } catch (error) {
      const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : null;
      parentPort?.postMessage({
        id: request.id,
        error: { code, message: (error as Error)?.message ?? String(error) },
      } satisfies ExtractionReply);
    }
  })().catch(() => {
    // A document that cannot be posted back (it does not clone): the pool still gets its answer.
    parentPort?.postMessage({
      id: request.id,
      error: { code: null, message: 'The extracted document could not be handed over.' },
    } satisfies ExtractionReply);
  });
});
parentPort?.postMessage({ ready: true });
