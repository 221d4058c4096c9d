import { isAbsolute } from 'node:path';
import { z } from 'zod';

/** Options of the local GGUF embedder; every rule zod can check is here, so start-up names the instance. */
export const llamaCppEmbedderOptionsSchema = z.strictObject({
  /** The embedding model, a .gguf file on this machine (nothing is ever downloaded). */
  modelPath: z
    .string()
    .min(1)
    .refine(isAbsolute, { message: 'modelPath must be an absolute path to a .gguf file' })
    .refine((path) => path.toLowerCase().endsWith('.gguf'), { message: 'modelPath must name a .gguf file' }),
  /** CPU threads for one embedding (DocQA's N_THREADS is the usual source). */
  threads: z.number().int().min(1).max(1024).default(4),
  /**
   * No effect any more, accepted so a configuration that sets it still starts (with a warning): the
   * embedding thread looks at the abort signal after every text, and never holds the event loop.
   */
  batchSize: z.number().int().min(1).max(4096).optional(),
  /** Tokens the model sees at once; the model's training context when left out (and never more). */
  contextSize: z.number().int().min(16).max(1_048_576).optional(),
  /** The model name in the embedding space; the file name without .gguf when left out. */
  modelName: z.string().min(1).max(200).optional(),
  /** `false` runs on the CPU; `'auto'` lets node-llama-cpp pick a GPU build it already has. */
  gpu: z.union([z.literal('auto'), z.literal(false)]).default(false),
});

export type LlamaCppEmbedderOptions = z.output<typeof llamaCppEmbedderOptionsSchema>;
export type LlamaCppEmbedderOptionsInput = z.input<typeof llamaCppEmbedderOptionsSchema>;
