import { gguf, writeGguf, type GgufTensor, type GgufValue } from './gguf-writer.js';
import { seededNormal } from './seeded-random.js';
import { defaultWordPieceVocab, specialTokens, toLlamaCppWordPiece } from './wordpiece-vocab.js';

export interface TinyBertOptions {
  /** Embedding length: the vectors the model answers have this many numbers. */
  dimensions?: number;
  layers?: number;
  /** Attention heads; must divide `dimensions`. */
  heads?: number;
  /**
   * A WordPiece vocabulary in the Hugging Face form (`##` continues a word);
   * must hold [PAD], [UNK], [CLS], [SEP] and [MASK].
   */
  vocab?: readonly string[];
  /** The longest input in tokens the model was "trained" for (the rows of its position embeddings). */
  contextLength?: number;
  /** Same seed, same weights, same file. */
  seed?: number;
}

export interface TinyBertModel {
  path: string;
  dimensions: number;
  contextLength: number;
  vocabSize: number;
}

/** BERT's usual initialisation scale; small values keep activations tame through the layers. */
const weightStandardDeviation = 0.02;
const poolingTypeMean = 1;
/** llama.cpp's LLAMA_POOLING_TYPE_RANK: the [CLS] state goes through the classifier head to one score. */
const poolingTypeRank = 4;
/**
 * The classifier's output weights are drawn wider than the rest, so that the scores (a sigmoid of
 * the head's one logit) spread over the 0..1 range instead of all sitting at 0.5.
 */
const classifierOutputStandardDeviation = 1;
const tokenTypeNormal = 1;
const tokenTypeUnknown = 2;
const tokenTypeControl = 3;

/**
 * Writes a BERT embedding model with seeded random weights that llama.cpp (and so node-llama-cpp)
 * loads: the keys and tensors its BERT loader reads, tensor shapes fastest dimension first, all F32.
 * The vectors mean nothing, but they are deterministic, finite, and differ between texts, which is
 * what a plugin test needs.
 */
export async function writeTinyBertEmbeddingModel(path: string, options: TinyBertOptions = {}): Promise<TinyBertModel> {
  return writeTinyBert(path, options, 'embedding');
}

/**
 * The same BERT as a cross-encoder reranker, as llama.cpp loads bge-reranker and jina-reranker:
 * pooling type RANK and a classifier head, `cls` (dimensions → dimensions, then tanh) and
 * `cls.output` (dimensions → one logit). node-llama-cpp ranks with it (createRankingContext) when
 * it finds `cls.weight` or `cls.output.weight` and the tokenizer has a [SEP] token. The scores are
 * meaningless but deterministic and differ between texts.
 */
export async function writeTinyBertRerankerModel(path: string, options: TinyBertOptions = {}): Promise<TinyBertModel> {
  return writeTinyBert(path, options, 'ranking');
}

async function writeTinyBert(
  path: string,
  options: TinyBertOptions,
  head: 'embedding' | 'ranking',
): Promise<TinyBertModel> {
  const { dimensions = 32, layers = 1, heads = 2, contextLength = 512, seed = 1 } = options;
  const vocab = options.vocab ?? defaultWordPieceVocab();
  checkShape(dimensions, layers, heads, contextLength);
  const specialIds = findSpecialTokens(vocab);
  const feedForward = 4 * dimensions;
  const tokenTypeCount = 2;

  const metadata: Record<string, GgufValue> = {
    'general.architecture': gguf.string('bert'),
    'general.name': gguf.string(`docqa-tiny-random-bert-${head === 'ranking' ? 'reranker-' : ''}${dimensions}d`),
    'general.file_type': gguf.uint32(0), // all F32
    'bert.context_length': gguf.uint32(contextLength),
    'bert.embedding_length': gguf.uint32(dimensions),
    'bert.feed_forward_length': gguf.uint32(feedForward),
    'bert.block_count': gguf.uint32(layers),
    'bert.attention.head_count': gguf.uint32(heads),
    'bert.attention.layer_norm_epsilon': gguf.float32(1e-12),
    // Read without a default by some llama.cpp versions; an encoder attends both ways.
    'bert.attention.causal': gguf.bool(false),
    'bert.pooling_type': gguf.uint32(head === 'ranking' ? poolingTypeRank : poolingTypeMean),
    'tokenizer.ggml.model': gguf.string('bert'),
    'tokenizer.ggml.tokens': gguf.strings(vocab.map(toLlamaCppWordPiece)),
    'tokenizer.ggml.token_type': gguf.int32s(vocab.map((token) => tokenTypeOf(token))),
    'tokenizer.ggml.token_type_count': gguf.uint32(tokenTypeCount),
    // Newer llama.cpp reads the CLS token as BOS, older as cls_token_id: write both.
    'tokenizer.ggml.bos_token_id': gguf.uint32(specialIds.cls),
    'tokenizer.ggml.cls_token_id': gguf.uint32(specialIds.cls),
    'tokenizer.ggml.seperator_token_id': gguf.uint32(specialIds.sep), // sic: the key is spelt so
    'tokenizer.ggml.padding_token_id': gguf.uint32(specialIds.pad),
    'tokenizer.ggml.unknown_token_id': gguf.uint32(specialIds.unk),
    'tokenizer.ggml.mask_token_id': gguf.uint32(specialIds.mask),
  };

  const random = seededNormal(seed, weightStandardDeviation);
  const weights = (name: string, shape: number[]): GgufTensor => ({
    name,
    shape,
    type: 'F32',
    data: Float32Array.from({ length: product(shape) }, random),
  });
  const filled = (name: string, length: number, value: number): GgufTensor => ({
    name,
    shape: [length],
    type: 'F32',
    data: new Float32Array(length).fill(value),
  });
  // A layer norm that starts as the identity scale: weight 1, bias 0.
  const norm = (prefix: string) => [filled(`${prefix}.weight`, dimensions, 1), filled(`${prefix}.bias`, dimensions, 0)];
  // A linear layer from `inputs` to `outputs`: GGUF lists the weight as [inputs, outputs].
  const linear = (prefix: string, inputs: number, outputs: number) => [
    weights(`${prefix}.weight`, [inputs, outputs]),
    weights(`${prefix}.bias`, [outputs]),
  ];

  const tensors: GgufTensor[] = [
    weights('token_embd.weight', [dimensions, vocab.length]),
    weights('token_types.weight', [dimensions, tokenTypeCount]),
    weights('position_embd.weight', [dimensions, contextLength]),
    ...norm('token_embd_norm'),
  ];
  for (let block = 0; block < layers; block += 1) {
    const prefix = `blk.${block}`;
    tensors.push(
      ...linear(`${prefix}.attn_q`, dimensions, dimensions),
      ...linear(`${prefix}.attn_k`, dimensions, dimensions),
      ...linear(`${prefix}.attn_v`, dimensions, dimensions),
      ...linear(`${prefix}.attn_output`, dimensions, dimensions),
      ...norm(`${prefix}.attn_output_norm`),
      ...linear(`${prefix}.ffn_up`, dimensions, feedForward),
      ...linear(`${prefix}.ffn_down`, feedForward, dimensions),
      ...norm(`${prefix}.layer_output_norm`),
    );
  }

  if (head === 'ranking') {
    const wide = seededNormal(seed + 1, classifierOutputStandardDeviation);
    const drawn = (name: string, shape: number[]): GgufTensor => ({
      name,
      shape,
      type: 'F32',
      data: Float32Array.from({ length: product(shape) }, wide),
    });
    // Scaled like a trained head (about 1/sqrt(inputs)), so tanh neither saturates nor flattens.
    const scaled = (tensor: GgufTensor): GgufTensor => ({
      ...tensor,
      data: tensor.data.map((value) => value / Math.sqrt(dimensions)),
    });
    tensors.push(
      scaled(drawn('cls.weight', [dimensions, dimensions])),
      filled('cls.bias', dimensions, 0),
      drawn('cls.output.weight', [dimensions, 1]),
      filled('cls.output.bias', 1, 0),
    );
  }

  await writeGguf(path, { metadata, tensors });
  return { path, dimensions, contextLength, vocabSize: vocab.length };
}

function checkShape(dimensions: number, layers: number, heads: number, contextLength: number): void {
  for (const [name, value] of Object.entries({ dimensions, layers, heads, contextLength })) {
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`tiny BERT: ${name} must be a positive integer, got ${value}`);
  }
  if (dimensions % heads !== 0) throw new Error(`tiny BERT: heads (${heads}) must divide dimensions (${dimensions})`);
}

function findSpecialTokens(vocab: readonly string[]) {
  const idOf = (token: (typeof specialTokens)[number]) => {
    const id = vocab.indexOf(token);
    if (id < 0) throw new Error(`tiny BERT: the vocabulary has no ${token} token`);
    return id;
  };
  // llama.cpp keeps one id per stored token text, so two entries that store alike would break it.
  const stored = new Set(vocab.map(toLlamaCppWordPiece));
  if (stored.size !== vocab.length) throw new Error('tiny BERT: the vocabulary has duplicate tokens');
  return { pad: idOf('[PAD]'), unk: idOf('[UNK]'), cls: idOf('[CLS]'), sep: idOf('[SEP]'), mask: idOf('[MASK]') };
}

function tokenTypeOf(token: string): number {
  if (token === '[UNK]') return tokenTypeUnknown;
  return (specialTokens as readonly string[]).includes(token) ? tokenTypeControl : tokenTypeNormal;
}

function product(shape: readonly number[]): number {
  return shape.reduce((result, dimension) => result * dimension, 1);
}
