import { isAbsolute } from 'node:path';
import { z } from 'zod';

/** Options of the local GGUF chat model; every rule zod can check is here, so start-up names the instance. */
export const llamaCppLlmOptionsSchema = z.strictObject({
  /** The chat model, a .gguf file on this machine (nothing is ever downloaded). DocQA's LLM_MODEL_PATH. */
  modelPath: z
    .string()
    .min(1)
    .refine(isAbsolute, { message: 'modelPath must be an absolute path to a .gguf file' })
    .refine((path) => path.toLowerCase().endsWith('.gguf'), { message: 'modelPath must name a .gguf file' }),
  /**
   * Tokens one generation sees, prompt and answer together (DocQA's N_CTX). The model's training
   * context when left out, and never more: a larger request is capped with a warning.
   */
  contextSize: z.number().int().min(64).max(1_048_576).optional(),
  /** CPU threads for one evaluation (DocQA's N_THREADS). */
  threads: z.number().int().min(1).max(1024).default(4),
  /** Layers offloaded to a CUDA GPU, -1 for all (DocQA's N_GPU_LAYERS); ignored without a CUDA GPU. */
  gpuLayers: z.number().int().min(-1).max(10_000).default(0),
  /** `'auto'` uses a CUDA GPU when one is detected and gpuLayers is not 0; `false` always runs on the CPU. */
  gpu: z.union([z.literal('auto'), z.literal(false)]).default('auto'),
  /**
   * The longest one request may take, waiting for a free sequence included (DocQA's
   * INFERENCE_TIMEOUT_SECONDS); beyond it the request fails as `unavailable`. Fractions are allowed.
   */
  timeoutSeconds: z.number().positive().max(3600).default(120),
  /**
   * Answers generated at the same time, each on its own sequence of the context (each sequence holds
   * `contextSize` tokens of memory); further requests wait in line.
   */
  sequences: z.number().int().min(1).max(64).default(2),
  /** Sampling temperature when a request names none; low, because answers should stick to the passages. */
  temperature: z.number().min(0).max(2).default(0.2),
});

export type LlamaCppLlmOptions = z.output<typeof llamaCppLlmOptionsSchema>;
export type LlamaCppLlmOptionsInput = z.input<typeof llamaCppLlmOptionsSchema>;

/**
 * The options DocQA's configuration variables give this plugin, for a preset:
 * `{ plugin: llmLlamacpp, options: llamaCppLlmOptionsFromVariables(variable) }`. Unset variables are
 * left out, so the plugin's defaults apply.
 */
export function llamaCppLlmOptionsFromVariables(variable: (name: string) => unknown): Record<string, unknown> {
  const fromVariables: Record<string, string> = {
    modelPath: 'LLM_MODEL_PATH',
    contextSize: 'N_CTX',
    threads: 'N_THREADS',
    gpuLayers: 'N_GPU_LAYERS',
    timeoutSeconds: 'INFERENCE_TIMEOUT_SECONDS',
  };
  const options: Record<string, unknown> = {};
  for (const [option, name] of Object.entries(fromVariables)) {
    const value = variable(name);
    if (value !== undefined) options[option] = value;
  }
  return options;
}
