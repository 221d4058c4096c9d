export { writeGguf, gguf, type GgufValue, type GgufTensor, type GgufContent } from './gguf-writer.js';
export {
  writeTinyBertEmbeddingModel,
  writeTinyBertRerankerModel,
  type TinyBertOptions,
  type TinyBertModel,
} from './tiny-bert.js';
export { writeTinyLlamaChatModel, chatMlTemplate, type TinyLlamaOptions, type TinyLlamaModel } from './tiny-llama.js';
