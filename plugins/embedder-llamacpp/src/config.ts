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
  /**
   * Where embeddings are computed (DocQA's EMBED_DEVICE): `false` on the CPU; `'auto'` on a GPU
   * when node-llama-cpp's prebuilt binaries can use one (CUDA, Vulkan), else the CPU; `'cuda'` on
   * a CUDA GPU or not at all: start-up fails with a message when CUDA cannot be used.
   */
  gpu: z.union([z.literal('auto'), z.literal('cuda'), z.literal(false)]).default(false),
  /**
   * Layers offloaded when on a GPU (DocQA's N_GPU_LAYERS when above 0); -1 all; unset: as many as
   * fit in the GPU's memory (node-llama-cpp's 'auto'). No effect on the CPU.
   */
  gpuLayers: z.number().int().min(-1).max(10_000).optional(),
});

/**
 * The device options from DocQA's variables, for a preset: EMBED_DEVICE auto/cpu/cuda, and
 * N_GPU_LAYERS when above 0 (its default 0 leaves the layers to fit the GPU: an embedding model is
 * small, and EMBED_DEVICE already chose the device).
 */
export function llamaCppEmbedderDeviceFromVariables(variable: (name: string) => unknown): {
  gpu: 'auto' | 'cuda' | false;
  gpuLayers?: number;
} {
  const device = variable('EMBED_DEVICE');
  const gpu = device === 'cpu' ? false : device === 'cuda' ? 'cuda' : 'auto';
  const layers = variable('N_GPU_LAYERS');
  return typeof layers === 'number' && (layers > 0 || layers === -1) ? { gpu, gpuLayers: layers } : { gpu };
}

export type LlamaCppEmbedderOptions = z.output<typeof llamaCppEmbedderOptionsSchema>;
export type LlamaCppEmbedderOptionsInput = z.input<typeof llamaCppEmbedderOptionsSchema>;
