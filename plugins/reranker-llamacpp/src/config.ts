import { isAbsolute } from 'node:path';
import { z } from 'zod';

/** Options of the local GGUF reranker; every rule zod can check is here, so start-up names the instance. */
export const llamaCppRerankerOptionsSchema = z.strictObject({
  /** The cross-encoder, a .gguf file on this machine with a ranking head (nothing is ever downloaded). */
  modelPath: z
    .string()
    .min(1)
    .refine(isAbsolute, { message: 'modelPath must be an absolute path to a .gguf file' })
    .refine((path) => path.toLowerCase().endsWith('.gguf'), { message: 'modelPath must name a .gguf file' }),
  /** The name in logs and GET /api/model-info; the file name without .gguf when left out. */
  modelName: z.string().min(1).max(200).optional(),
  /** CPU threads for ranking (DocQA's embedding threads are the usual source: it runs beside the embedder). */
  threads: z.number().int().min(1).max(1024).default(4),
  /**
   * Tokens of one query and passage pair; the model's training context when left out (and never
   * more). A longer passage is ranked in overlapping pieces, its best piece counting.
   */
  contextSize: z.number().int().min(32).max(1_048_576).optional(),
  /** As the embedder's option: `false` the CPU, `'auto'` a GPU when a prebuilt binary can use one. */
  gpu: z.union([z.literal('auto'), z.literal(false)]).default(false),
});

export type LlamaCppRerankerOptions = z.output<typeof llamaCppRerankerOptionsSchema>;
export type LlamaCppRerankerOptionsInput = z.input<typeof llamaCppRerankerOptionsSchema>;
