import fs from 'node:fs/promises';
import path from 'node:path';
import { DocqaError } from '@docqa/plugin-api';

/** What DocQA shows and decides from a GGUF file's header, without loading the model. */
export interface GgufSummary {
  file: string;
  sizeBytes: number;
  architecture: string;
  name: string | null;
  /**
   * `reranking` for models with llama.cpp's RANK pooling (cross-encoders with a classifier head);
   * `embedding` for other encoders and models that declare a pooling type; `chat` otherwise.
   */
  purpose: 'chat' | 'embedding' | 'reranking';
  quantization: string | null;
  contextLength: number | null;
  /** Width of the vectors an embedding model answers. */
  embeddingLength: number | null;
  license: string | null;
}

const magic = Buffer.from('GGUF', 'ascii');
/** llama.cpp's LLAMA_POOLING_TYPE_RANK, which the GGUF converter writes for sequence classifiers (rerankers). */
const poolingTypeRank = 4;
/** Architectures llama.cpp runs as encoders only: they embed, they cannot chat. */
const encoderArchitectures = new Set([
  'bert',
  'nomic-bert',
  'nomic-bert-moe',
  'jina-bert-v2',
  'jina-bert-v3',
  'modern-bert',
  't5encoder',
]);

/** True when the file starts with GGUF's magic bytes: the cheap first check before anything parses it. */
export async function hasGgufMagic(file: string): Promise<boolean> {
  const handle = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && head.equals(magic);
  } finally {
    await handle.close();
  }
}

/**
 * Checks that a file is a GGUF model node-llama-cpp can read (magic bytes, then its metadata) and
 * summarises it. Anything else is a `validation_failed` naming the file.
 */
export async function inspectGguf(file: string): Promise<GgufSummary> {
  const stats = await fs.stat(file).catch((error: NodeJS.ErrnoException) => {
    throw new DocqaError(
      error.code === 'ENOENT' ? 'not_found' : 'unavailable',
      `Cannot read ${file}: ${error.code ?? error.message}`,
      { cause: error },
    );
  });
  if (!stats.isFile()) throw new DocqaError('validation_failed', `${file} is not a file.`);
  if (!(await hasGgufMagic(file)))
    throw new DocqaError(
      'validation_failed',
      `${file} is not a GGUF model (it does not start with the GGUF magic bytes).`,
    );
  // node-llama-cpp loads when a model file is first inspected, not with the server: its modules alone
  // are about 38 MB of memory (measured), and the local embedding model runs in a thread of its own.
  const { GgufFileType, readGgufFileInfo } = await import('node-llama-cpp');
  let info;
  try {
    // Tensor info is not needed and is the large part of the header of a big model.
    info = await readGgufFileInfo(file, { readTensorInfo: false, logWarnings: false, sourceType: 'filesystem' });
  } catch (error) {
    throw new DocqaError(
      'validation_failed',
      `${file} has a GGUF header node-llama-cpp cannot read: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const general = info.metadata.general as
    { architecture?: string; name?: string; file_type?: number; license?: string } | undefined;
  const architecture = String(general?.architecture ?? 'unknown');
  const own = ((info.metadata as unknown as Record<string, unknown>)[architecture] ?? {}) as {
    context_length?: unknown;
    embedding_length?: unknown;
    pooling_type?: unknown;
  };
  const fileType = general?.file_type;
  const typeName = fileType === undefined ? undefined : GgufFileType[fileType];
  return {
    file: path.basename(file),
    sizeBytes: stats.size,
    architecture,
    name: general?.name?.trim() || null,
    purpose: purposeOf(architecture, own.pooling_type),
    // `MOSTLY_Q4_K_M` → `Q4_K_M`, as the llm-llamacpp plugin names it.
    quantization: typeName ? typeName.replace(/^(MOSTLY|ALL)_/, '') : null,
    contextLength: numberOrNull(own.context_length),
    embeddingLength: numberOrNull(own.embedding_length),
    license: typeof general?.license === 'string' && general.license.trim() ? general.license.trim() : null,
  };
}

function purposeOf(architecture: string, poolingType: unknown): GgufSummary['purpose'] {
  if (numberOrNull(poolingType) === poolingTypeRank) return 'reranking';
  return encoderArchitectures.has(architecture) || poolingType !== undefined ? 'embedding' : 'chat';
}

function numberOrNull(value: unknown): number | null {
  const n = typeof value === 'bigint' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}
