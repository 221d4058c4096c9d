export { writeGguf, gguf, type GgufValue, type GgufTensor, type GgufContent } from './gguf-writer.js';
export { writeTinyBertEmbeddingModel, type TinyBertOptions, type TinyBertModel } from './tiny-bert.js';
