import { parentPort } from 'node:worker_threads';
import type { ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';

/** One extraction request: which extractor module to use and what to read. */
export interface ExtractionRequest {
  id: number;
  workerModule: string;
  input: ExtractorInput;
}

/** Errors cross the thread as plain data; the pool rebuilds a DocqaError from code and message. */
export type ExtractionReply = { id: number; document: ExtractedDocument } | { id: number; error: { code: string | null; message: string } };

type ExtractModule = { extract(input: ExtractorInput): Promise<ExtractedDocument> };
const modules = new Map<string, Promise<ExtractModule>>();

parentPort?.on('message', (request: ExtractionRequest) => {
  void (async () => {
    try {
      let module = modules.get(request.workerModule);
      if (!module) {
        module = import(request.workerModule) as Promise<ExtractModule>;
        modules.set(request.workerModule, module);
      }
      const document = await (await module).extract(request.input);
      parentPort?.postMessage({ id: request.id, document } satisfies ExtractionReply);
    } catch (error) {
      const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : null;
      parentPort?.postMessage({ id: request.id, error: { code, message: (error as Error)?.message ?? String(error) } } satisfies ExtractionReply);
    }
  })();
});
parentPort?.postMessage({ ready: true });
