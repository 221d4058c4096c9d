import { DocqaError, errorStatus, type ErrorCode } from '@docqa/plugin-api/errors';
import type { LlamaCppEmbedderOptions } from './config.js';

/** What the server's thread sends the embedding thread. */
export type ToEmbeddingThread =
  /** The first message: load this model (the space's model name is the server's to choose). */
  | { type: 'start'; options: LlamaCppEmbedderOptions; spaceModel: string }
  | { type: 'embed'; id: number; texts: string[] }
  /** The caller gave up on a request: its texts not yet embedded are dropped. */
  | { type: 'cancel'; id: number }
  /** Release the model and llama.cpp, then end the thread. */
  | { type: 'stop' };

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** What the embedding thread answers. */
export type FromEmbeddingThread =
  | { type: 'ready'; dimensions: number; maxInputTokens: number; contextSize: number; device: string }
  /** Loading failed (id null) or a request did. */
  | { type: 'failed'; id: number | null; error: ThreadError }
  | { type: 'embedded'; id: number; vectors: Float32Array[] }
  | { type: 'log'; level: LogLevel; fields: Record<string, unknown>; message: string };

/** A DocqaError as it crosses threads: its class does not survive structured cloning, its code does. */
export interface ThreadError {
  code: ErrorCode;
  message: string;
}

export function toThreadError(error: unknown): ThreadError {
  if (error instanceof DocqaError) return { code: error.code, message: error.message };
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

export function fromThreadError(error: ThreadError): DocqaError {
  return new DocqaError(error.code in errorStatus ? error.code : 'internal', error.message);
}
