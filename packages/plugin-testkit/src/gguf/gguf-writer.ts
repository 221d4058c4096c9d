import { open } from 'node:fs/promises';

/**
 * A GGUF v3 writer: enough of the format for tests to build their own models (no npm package ships
 * real weights, and nothing may be downloaded). Layout: header, key-value metadata, tensor infos,
 * padding to the alignment, then each tensor's data at an aligned offset. Little endian throughout.
 */

/** A metadata value with its GGUF type, since a JavaScript number alone cannot say uint32 or float32. */
export type GgufValue =
  | { type: 'uint32'; value: number }
  | { type: 'int32'; value: number }
  | { type: 'float32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'string[]'; value: readonly string[] }
  | { type: 'int32[]'; value: readonly number[] }
  | { type: 'float32[]'; value: readonly number[] };

/** Shorthands for typed values: `gguf.uint32(512)`, `gguf.strings(['a', 'b'])`. */
export const gguf = {
  uint32: (value: number): GgufValue => ({ type: 'uint32', value }),
  int32: (value: number): GgufValue => ({ type: 'int32', value }),
  float32: (value: number): GgufValue => ({ type: 'float32', value }),
  bool: (value: boolean): GgufValue => ({ type: 'bool', value }),
  string: (value: string): GgufValue => ({ type: 'string', value }),
  strings: (value: readonly string[]): GgufValue => ({ type: 'string[]', value }),
  int32s: (value: readonly number[]): GgufValue => ({ type: 'int32[]', value }),
  float32s: (value: readonly number[]): GgufValue => ({ type: 'float32[]', value }),
};

export interface GgufTensor {
  name: string;
  /** Dimensions fastest-varying first, as GGUF lists them (a matrix of n rows of k values is [k, n]). */
  shape: number[];
  /** How the values are stored in the file; `data` is always given as float32. */
  type: 'F32' | 'F16';
  data: Float32Array;
}

export interface GgufContent {
  metadata: Record<string, GgufValue>;
  tensors: GgufTensor[];
}

export const ggufAlignment = 32;

const ggufMagic = 0x46554747; // "GGUF" read as a little-endian uint32
const ggufVersion = 3;
const valueTypeId = { uint32: 4, int32: 5, float32: 6, bool: 7, string: 8, array: 9 } as const;
const tensorTypeId = { F32: 0, F16: 1 } as const;
const bytesPerValue = { F32: 4, F16: 2 } as const;

/** Writes a GGUF file. Tensor data goes out one tensor at a time, so memory stays at the largest tensor. */
export async function writeGguf(path: string, content: GgufContent): Promise<void> {
  const layout = planTensors(content.tensors);
  const header = encodeHeader(content.metadata, layout);
  const file = await open(path, 'w');
  try {
    await file.write(header);
    for (const { tensor, padding } of layout) {
      await file.write(encodeTensorData(tensor));
      if (padding > 0) await file.write(Buffer.alloc(padding));
    }
  } finally {
    await file.close();
  }
}

interface PlannedTensor {
  tensor: GgufTensor;
  /** Offset from the start of the data section. */
  offset: number;
  /** Zero bytes after the data so the next tensor starts aligned. */
  padding: number;
}

function planTensors(tensors: readonly GgufTensor[]): PlannedTensor[] {
  const names = new Set<string>();
  let offset = 0;
  return tensors.map((tensor) => {
    if (names.has(tensor.name)) throw new Error(`GGUF: tensor '${tensor.name}' is listed twice`);
    names.add(tensor.name);
    const count = tensor.shape.reduce((product, dimension) => product * dimension, 1);
    if (tensor.shape.length === 0 || tensor.shape.some((dimension) => !Number.isInteger(dimension) || dimension < 1)) {
      throw new Error(`GGUF: tensor '${tensor.name}' has an invalid shape [${tensor.shape.join(', ')}]`);
    }
    if (count !== tensor.data.length) {
      throw new Error(
        `GGUF: tensor '${tensor.name}' of shape [${tensor.shape.join(', ')}] ` +
          `needs ${count} values, got ${tensor.data.length}`,
      );
    }
    const size = count * bytesPerValue[tensor.type];
    const planned = { tensor, offset, padding: alignUp(size) - size };
    offset += alignUp(size);
    return planned;
  });
}

function encodeHeader(metadata: Record<string, GgufValue>, layout: readonly PlannedTensor[]): Buffer {
  const alignmentEntry = metadata['general.alignment'];
  if (alignmentEntry && alignmentEntry.value !== ggufAlignment) {
    throw new Error(
      `GGUF: this writer aligns to ${ggufAlignment} bytes; general.alignment must be left out or ${ggufAlignment}`,
    );
  }
  const out = new ByteWriter();
  out.uint32(ggufMagic);
  out.uint32(ggufVersion);
  out.uint64(layout.length);
  out.uint64(Object.keys(metadata).length);
  for (const [key, value] of Object.entries(metadata)) {
    out.string(key);
    encodeValue(out, key, value);
  }
  for (const { tensor, offset } of layout) {
    out.string(tensor.name);
    out.uint32(tensor.shape.length);
    for (const dimension of tensor.shape) out.uint64(dimension);
    out.uint32(tensorTypeId[tensor.type]);
    out.uint64(offset);
  }
  const header = out.toBuffer();
  return Buffer.concat([header, Buffer.alloc(alignUp(header.length) - header.length)]);
}

function encodeValue(out: ByteWriter, key: string, entry: GgufValue): void {
  switch (entry.type) {
    case 'uint32':
      out.uint32(valueTypeId.uint32).uint32(checkedInteger(key, entry.value, 0, 0xffffffff));
      return;
    case 'int32':
      out.uint32(valueTypeId.int32).int32(checkedInteger(key, entry.value, -0x80000000, 0x7fffffff));
      return;
    case 'float32':
      out.uint32(valueTypeId.float32).float32(entry.value);
      return;
    case 'bool':
      out.uint32(valueTypeId.bool).uint8(entry.value ? 1 : 0);
      return;
    case 'string':
      out.uint32(valueTypeId.string).string(entry.value);
      return;
    case 'string[]':
      out.uint32(valueTypeId.array).uint32(valueTypeId.string).uint64(entry.value.length);
      for (const item of entry.value) out.string(item);
      return;
    case 'int32[]':
      out.uint32(valueTypeId.array).uint32(valueTypeId.int32).uint64(entry.value.length);
      for (const item of entry.value) out.int32(checkedInteger(key, item, -0x80000000, 0x7fffffff));
      return;
    case 'float32[]':
      out.uint32(valueTypeId.array).uint32(valueTypeId.float32).uint64(entry.value.length);
      for (const item of entry.value) out.float32(item);
      return;
  }
}

function checkedInteger(key: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`GGUF: metadata '${key}': ${value} is not an integer in [${min}, ${max}]`);
  return value;
}

function encodeTensorData(tensor: GgufTensor): Buffer {
  if (tensor.type === 'F32') {
    const bytes = Buffer.alloc(tensor.data.length * 4);
    tensor.data.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
    return bytes;
  }
  const bytes = Buffer.alloc(tensor.data.length * 2);
  tensor.data.forEach((value, index) => bytes.writeUInt16LE(float32ToFloat16Bits(value), index * 2));
  return bytes;
}

function alignUp(size: number): number {
  return Math.ceil(size / ggufAlignment) * ggufAlignment;
}

/** IEEE 754 half precision, rounding to nearest even; overflow becomes infinity, tiny values subnormals. */
export function float32ToFloat16Bits(value: number): number {
  const bits = new Uint32Array(new Float32Array([value]).buffer)[0] ?? 0;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0); // infinity or NaN
  const halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return sign | 0x7c00;
  if (halfExponent <= 0) {
    if (halfExponent < -10) return sign; // below the smallest subnormal: signed zero
    const full = mantissa | 0x800000; // restore the implicit leading 1
    const shift = 14 - halfExponent;
    return sign | roundShift(full, shift);
  }
  // A carry out of the mantissa correctly bumps the exponent (and may reach infinity).
  return sign | ((halfExponent << 10) + roundShift(mantissa, 13));
}

function roundShift(value: number, shift: number): number {
  const kept = value >>> shift;
  const rest = value - kept * 2 ** shift;
  const half = 2 ** (shift - 1);
  return rest > half || (rest === half && (kept & 1) === 1) ? kept + 1 : kept;
}

/** Appends little-endian values to a growing buffer. */
class ByteWriter {
  private chunks: Buffer[] = [];
  private length = 0;

  private push(chunk: Buffer): this {
    this.chunks.push(chunk);
    this.length += chunk.length;
    return this;
  }

  uint8(value: number): this {
    return this.push(Buffer.from([value]));
  }
  uint32(value: number): this {
    const chunk = Buffer.alloc(4);
    chunk.writeUInt32LE(value);
    return this.push(chunk);
  }
  int32(value: number): this {
    const chunk = Buffer.alloc(4);
    chunk.writeInt32LE(value);
    return this.push(chunk);
  }
  uint64(value: number): this {
    const chunk = Buffer.alloc(8);
    chunk.writeBigUInt64LE(BigInt(value));
    return this.push(chunk);
  }
  float32(value: number): this {
    const chunk = Buffer.alloc(4);
    chunk.writeFloatLE(value);
    return this.push(chunk);
  }
  string(value: string): this {
    const bytes = Buffer.from(value, 'utf8');
    return this.uint64(bytes.length).push(bytes);
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}
