import path from 'node:path';
import { DocqaError } from '@docqa/plugin-api';
import { loadCatalogue } from './catalogue.js';
import { modelPaths } from './store.js';

type Variable = (name: string) => unknown;

/**
 * The file RAG_RERANK_MODEL names: a catalogue entry of purpose reranking (its file in MODELS_DIR,
 * where `docqa models pull` puts it), or a .gguf file name in MODELS_DIR. The variable's parser has
 * already refused absolute paths and `..`; a chat or embedding entry is refused here by name, since
 * loading it would only fail later with llama.cpp's less helpful message.
 */
export function rerankModelPath(variable: Variable, cwd: string = process.cwd()): { path: string; name: string } {
  const value = String(variable('RAG_RERANK_MODEL') ?? '');
  const { modelsDir, cataloguePath } = modelPaths(
    (name) => variable(name),
    path.resolve(cwd, String(variable('DOCQA_DATA_DIR') ?? './data')),
    cwd,
  );
  if (/\.gguf$/i.test(value)) return { path: path.join(modelsDir, value), name: path.basename(value, '.gguf') };
  const catalogue = loadCatalogue(cataloguePath);
  const entry = catalogue.find(value);
  if (!entry) {
    const offered = catalogue.entries.filter((candidate) => candidate.purpose === 'reranking').map((e) => e.name);
    throw new DocqaError(
      'validation_failed',
      `RAG_RERANK_MODEL=${value} is neither a .gguf file nor a model of the catalogue ${cataloguePath}` +
        (offered.length ? ` (reranking models: ${offered.join(', ')})` : ''),
    );
  }
  if (entry.purpose !== 'reranking')
    throw new DocqaError(
      'validation_failed',
      `RAG_RERANK_MODEL=${value} is ${entry.purpose === 'embedding' ? 'an' : 'a'} ${entry.purpose} model, ` +
        'not a reranking (cross-encoder) model.',
    );
  return { path: path.join(modelsDir, entry.file), name: entry.name };
}
