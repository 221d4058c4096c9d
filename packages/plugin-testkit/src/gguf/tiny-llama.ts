import { gguf, writeGguf, type GgufTensor, type GgufValue } from './gguf-writer.js';
import { seededNormal } from './seeded-random.js';

export interface TinyLlamaOptions {
  /** Width of the hidden state; `heads` must divide it. */
  dimensions?: number;
  layers?: number;
  /** Attention heads; key/value heads are the same number (no grouped-query attention). */
  heads?: number;
  /** The context the model was "trained" for (`llama.context_length`): what a plugin reports as the model's limit. */
  contextLength?: number;
  /** Same seed, same weights, same file. */
  seed?: number;
  /** `general.name`; a plugin shows it as the model name. */
  name?: string;
}

export interface TinyLlamaModel {
  path: string;
  name: string;
  dimensions: number;
  contextLength: number;
  vocabSize: number;
  /** Special tokens by text, with their ids. */
  specialTokens: Record<(typeof specialTokens)[number], number>;
}

/** ChatML, as Qwen and many fine-tunes ship it: node-llama-cpp recognises it and formats chats with it. */
export const chatMlTemplate =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + " +
  "message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const specialTokens = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'] as const;
const tokenTypeNormal = 1;
const tokenTypeControl = 3;

/**
 * Hidden-state dimension 0 carries a large constant instead of a word meaning. After the final RMS
 * norm it is nearly constant too, so a weight on it in the output matrix acts as a per-token bias
 * (llama has no output bias). That bias keeps every token but printable ASCII out of reach: random
 * weights then never produce broken UTF-8, control characters or an end-of-turn token, so the model
 * writes non-empty gibberish until maxTokens, whatever the temperature.
 */
const biasDimensionValue = 8;
const forbiddenTokenBias = -10;

/**
 * Writes a llama chat model with seeded random F32 weights that llama.cpp (so node-llama-cpp) loads
 * and generates from in milliseconds: a GPT-2 style byte-level BPE vocabulary (the 256 byte tokens
 * and the ChatML special tokens, no merges, so a text is one token per UTF-8 byte) and a ChatML chat
 * template. The answers are gibberish but deterministic at temperature 0, which is what a test needs.
 */
export async function writeTinyLlamaChatModel(path: string, options: TinyLlamaOptions = {}): Promise<TinyLlamaModel> {
  const { dimensions = 64, layers = 2, heads = 4, contextLength = 2048, seed = 1 } = options;
  const name = options.name ?? `docqa-tiny-random-llama-${dimensions}d`;
  checkShape(dimensions, layers, heads, contextLength);
  const feedForward = 2 * dimensions;
  const vocab = [...byteTokens(), ...specialTokens];
  const idOf = (token: (typeof specialTokens)[number]) => vocab.indexOf(token);
  const ids = {
    '<|endoftext|>': idOf('<|endoftext|>'),
    '<|im_start|>': idOf('<|im_start|>'),
    '<|im_end|>': idOf('<|im_end|>'),
  };

  const metadata: Record<string, GgufValue> = {
    'general.architecture': gguf.string('llama'),
    'general.name': gguf.string(name),
    'general.file_type': gguf.uint32(0), // all F32
    'llama.context_length': gguf.uint32(contextLength),
    'llama.embedding_length': gguf.uint32(dimensions),
    'llama.feed_forward_length': gguf.uint32(feedForward),
    'llama.block_count': gguf.uint32(layers),
    'llama.attention.head_count': gguf.uint32(heads),
    'llama.attention.head_count_kv': gguf.uint32(heads),
    'llama.attention.layer_norm_rms_epsilon': gguf.float32(1e-5),
    'llama.rope.dimension_count': gguf.uint32(dimensions / heads),
    'llama.rope.freq_base': gguf.float32(10_000),
    'llama.vocab_size': gguf.uint32(vocab.length),
    'tokenizer.ggml.model': gguf.string('gpt2'),
    // Without it llama.cpp warns and falls back to the same default pre-tokenizer.
    'tokenizer.ggml.pre': gguf.string('default'),
    'tokenizer.ggml.tokens': gguf.strings(vocab),
    'tokenizer.ggml.token_type': gguf.int32s(vocab.map((_, id) => (id < 256 ? tokenTypeNormal : tokenTypeControl))),
    'tokenizer.ggml.merges': gguf.strings([]),
    'tokenizer.ggml.bos_token_id': gguf.uint32(ids['<|endoftext|>']),
    'tokenizer.ggml.eos_token_id': gguf.uint32(ids['<|im_end|>']),
    'tokenizer.ggml.padding_token_id': gguf.uint32(ids['<|endoftext|>']),
    // ChatML models start without BOS; the template carries the structure.
    'tokenizer.ggml.add_bos_token': gguf.bool(false),
    'tokenizer.chat_template': gguf.string(chatMlTemplate),
  };

  const normal = seededNormal(seed, 1);
  const random = (count: number, scale: number) => Float32Array.from({ length: count }, () => normal() * scale);
  const tensor = (name: string, shape: number[], data: Float32Array): GgufTensor => ({
    name,
    shape,
    type: 'F32',
    data,
  });
  // A linear layer from `inputs` to `outputs` is stored as [inputs, outputs]: output row o starts at o * inputs.
  const linear = (name: string, inputs: number, outputs: number, scale: number, keepBiasDimension = true) => {
    const data = random(inputs * outputs, scale);
    if (!keepBiasDimension) data.fill(0, 0, inputs); // writes nothing into dimension 0, so it stays constant
    return tensor(name, [inputs, outputs], data);
  };
  const ones = (name: string) => tensor(name, [dimensions], new Float32Array(dimensions).fill(1));

  const embeddings = random(dimensions * vocab.length, 1);
  for (let token = 0; token < vocab.length; token += 1) embeddings[token * dimensions] = biasDimensionValue;
  const output = random(dimensions * vocab.length, 0.1);
  vocab.forEach((_, token) => {
    output[token * dimensions] = isPrintableAscii(token) ? 0 : forbiddenTokenBias;
  });

  // Small layer weights (1/sqrt(inputs)) keep activations tame, yet large enough that context matters.
  const scale = 1 / Math.sqrt(dimensions);
  const tensors: GgufTensor[] = [tensor('token_embd.weight', [dimensions, vocab.length], embeddings)];
  for (let block = 0; block < layers; block += 1) {
    const prefix = `blk.${block}`;
    tensors.push(
      ones(`${prefix}.attn_norm.weight`),
      linear(`${prefix}.attn_q.weight`, dimensions, dimensions, scale),
      linear(`${prefix}.attn_k.weight`, dimensions, dimensions, scale),
      linear(`${prefix}.attn_v.weight`, dimensions, dimensions, scale),
      linear(`${prefix}.attn_output.weight`, dimensions, dimensions, scale, false),
      ones(`${prefix}.ffn_norm.weight`),
      linear(`${prefix}.ffn_gate.weight`, dimensions, feedForward, scale),
      linear(`${prefix}.ffn_up.weight`, dimensions, feedForward, scale),
      linear(`${prefix}.ffn_down.weight`, feedForward, dimensions, 1 / Math.sqrt(feedForward), false),
    );
  }
  tensors.push(ones('output_norm.weight'), tensor('output.weight', [dimensions, vocab.length], output));

  await writeGguf(path, { metadata, tensors });
  return { path, name, dimensions, contextLength, vocabSize: vocab.length, specialTokens: ids };
}

/**
 * GPT-2's byte-level alphabet: byte b is stored as one printable character (printable Latin-1 bytes
 * as themselves, the others shifted to U+0100 and up), which is how llama.cpp's BPE looks bytes up.
 * Token id b is byte b.
 */
function byteTokens(): string[] {
  const printable = (byte: number) =>
    (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || (byte >= 0xae && byte <= 0xff);
  let shifted = 0;
  return Array.from({ length: 256 }, (_, byte) => String.fromCodePoint(printable(byte) ? byte : 256 + shifted++));
}

function isPrintableAscii(token: number): boolean {
  return token >= 0x20 && token <= 0x7e;
}

function checkShape(dimensions: number, layers: number, heads: number, contextLength: number): void {
  for (const [name, value] of Object.entries({ dimensions, layers, heads, contextLength })) {
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`tiny llama: ${name} must be a positive integer, got ${value}`);
  }
  if (dimensions % heads !== 0 || (dimensions / heads) % 2 !== 0)
    throw new Error(`tiny llama: heads (${heads}) must divide dimensions (${dimensions}) into an even head size`);
}
