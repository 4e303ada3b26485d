/**
 * Writes GGUF model files for tests of the in-process runtime: a real llama architecture with
 * tiny dimensions and random weights, so llama.cpp loads it, tokenizes, applies its chat
 * template and generates (nonsense, but under a grammar valid JSON). Hand-written because no
 * package writes GGUF from JavaScript; it follows the GGUF v3 layout of ggml's docs/gguf.md:
 * magic `GGUF`, version 3, tensor count, metadata count, the metadata key/values (typed), the
 * tensor infos (name, dimensions innermost first, type, offset), padding to `general.alignment`
 * (32), then each tensor's data, aligned. Weights are F32.
 */
import { writeFileSync } from 'node:fs';

/** A typed metadata value (GGUF stores the type with each value). */
export type GgufValue =
  | { u32: number }
  | { i32: number }
  | { f32: number }
  | { bool: boolean }
  | { str: string }
  | { strings: string[] }
  | { f32s: number[] }
  | { i32s: number[] };

const TYPE = { u32: 4, i32: 5, f32: 6, bool: 7, str: 8, array: 9 } as const;
const GGML_F32 = 0;
const ALIGNMENT = 32;

class Writer {
  private chunks: Uint8Array[] = [];
  length = 0;

  bytes(b: Uint8Array) {
    this.chunks.push(b);
    this.length += b.length;
  }
  private number(size: number, set: (view: DataView) => void) {
    const b = new Uint8Array(size);
    set(new DataView(b.buffer));
    this.bytes(b);
  }
  u32(n: number) {
    this.number(4, (v) => v.setUint32(0, n, true));
  }
  i32(n: number) {
    this.number(4, (v) => v.setInt32(0, n, true));
  }
  u64(n: number) {
    this.number(8, (v) => v.setBigUint64(0, BigInt(n), true));
  }
  f32(n: number) {
    this.number(4, (v) => v.setFloat32(0, n, true));
  }
  string(s: string) {
    const encoded = new TextEncoder().encode(s);
    this.u64(encoded.length);
    this.bytes(encoded);
  }
  align() {
    const pad = (ALIGNMENT - (this.length % ALIGNMENT)) % ALIGNMENT;
    if (pad) this.bytes(new Uint8Array(pad));
  }
  value(value: GgufValue) {
    if ('u32' in value) {
      this.u32(TYPE.u32);
      this.u32(value.u32);
    } else if ('i32' in value) {
      this.u32(TYPE.i32);
      this.i32(value.i32);
    } else if ('f32' in value) {
      this.u32(TYPE.f32);
      this.f32(value.f32);
    } else if ('bool' in value) {
      this.u32(TYPE.bool);
      this.bytes(new Uint8Array([value.bool ? 1 : 0]));
    } else if ('str' in value) {
      this.u32(TYPE.str);
      this.string(value.str);
    } else {
      const [type, items, write] =
        'strings' in value
          ? [TYPE.str, value.strings, (s: never) => this.string(s)]
          : 'f32s' in value
            ? [TYPE.f32, value.f32s, (n: never) => this.f32(n)]
            : [TYPE.i32, value.i32s, (n: never) => this.i32(n)];
      this.u32(TYPE.array);
      this.u32(type);
      this.u64(items.length);
      for (const item of items) write(item as never);
    }
  }
  result(): Uint8Array {
    return Buffer.concat(this.chunks, this.length);
  }
}

export interface GgufTensor {
  name: string;
  /** Dimensions innermost first (ggml's `ne`): a matrix multiplying an n_embd vector is [n_embd, rows]. */
  shape: number[];
  data: Float32Array;
}

export function writeGguf(path: string, metadata: Array<[string, GgufValue]>, tensors: GgufTensor[]): void {
  const w = new Writer();
  w.bytes(new TextEncoder().encode('GGUF'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(metadata.length);
  for (const [key, value] of metadata) {
    w.string(key);
    w.value(value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    w.string(tensor.name);
    w.u32(tensor.shape.length);
    for (const dim of tensor.shape) w.u64(dim);
    w.u32(GGML_F32);
    w.u64(offset);
    offset = Math.ceil((offset + tensor.data.byteLength) / ALIGNMENT) * ALIGNMENT;
  }
  w.align();
  for (const tensor of tensors) {
    w.bytes(new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    w.align();
  }
  writeFileSync(path, w.result());
}

export interface TinyLlamaOptions {
  embedding?: number;
  layers?: number;
  heads?: number;
  feedForward?: number;
  context?: number;
  /** Seeds the weights: the same seed writes the same model. */
  seed?: number;
}

/** ChatML, the template many GGUF models carry: the runtime formats conversations with it. */
const CHAT_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/**
 * A llama model of `embedding` width: a SentencePiece-style vocabulary of specials (unknown, begin,
 * end, the ChatML markers), the 256 byte tokens every text falls back to, `▁` and the printable
 * ASCII characters; attention and feed-forward blocks with random weights (a fixed-seed generator).
 */
export function writeTinyLlama(path: string, options: TinyLlamaOptions = {}): { vocabulary: number } {
  const { embedding = 64, layers = 2, heads = 4, feedForward = 128, context = 2048, seed = 1 } = options;
  const tokens = ['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>'];
  const types = [2, 3, 3, 3, 3];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6);
  }
  tokens.push('▁');
  types.push(1);
  for (let c = 33; c < 127; c++) {
    tokens.push(String.fromCharCode(c));
    types.push(1);
  }
  const vocabulary = tokens.length;
  const scores = tokens.map((_, i) => (types[i] === 1 ? -1 - i / vocabulary : 0));

  let state = seed >>> 0 || 1;
  const random = () => {
    // xorshift32: small, fast, and the same weights for the same seed.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32 - 0.5;
  };
  const tensor = (name: string, shape: number[], norm = false): GgufTensor => {
    const data = new Float32Array(shape.reduce((a, b) => a * b, 1));
    for (let i = 0; i < data.length; i++) data[i] = norm ? 1 : random() * 0.2;
    return { name, shape, data };
  };
  const tensors = [
    tensor('token_embd.weight', [embedding, vocabulary]),
    tensor('output_norm.weight', [embedding], true),
    tensor('output.weight', [embedding, vocabulary]),
  ];
  for (let l = 0; l < layers; l++) {
    tensors.push(
      tensor(`blk.${l}.attn_norm.weight`, [embedding], true),
      tensor(`blk.${l}.attn_q.weight`, [embedding, embedding]),
      tensor(`blk.${l}.attn_k.weight`, [embedding, embedding]),
      tensor(`blk.${l}.attn_v.weight`, [embedding, embedding]),
      tensor(`blk.${l}.attn_output.weight`, [embedding, embedding]),
      tensor(`blk.${l}.ffn_norm.weight`, [embedding], true),
      tensor(`blk.${l}.ffn_gate.weight`, [embedding, feedForward]),
      tensor(`blk.${l}.ffn_up.weight`, [embedding, feedForward]),
      tensor(`blk.${l}.ffn_down.weight`, [feedForward, embedding]),
    );
  }
  writeGguf(
    path,
    [
      ['general.architecture', { str: 'llama' }],
      ['general.name', { str: 'trawl-tiny-test' }],
      ['general.file_type', { u32: 0 }],
      ['llama.context_length', { u32: context }],
      ['llama.embedding_length', { u32: embedding }],
      ['llama.block_count', { u32: layers }],
      ['llama.feed_forward_length', { u32: feedForward }],
      ['llama.rope.dimension_count', { u32: embedding / heads }],
      ['llama.attention.head_count', { u32: heads }],
      ['llama.attention.head_count_kv', { u32: heads }],
      ['llama.attention.layer_norm_rms_epsilon', { f32: 1e-5 }],
      ['llama.vocab_size', { u32: vocabulary }],
      ['tokenizer.ggml.model', { str: 'llama' }],
      ['tokenizer.ggml.tokens', { strings: tokens }],
      ['tokenizer.ggml.scores', { f32s: scores }],
      ['tokenizer.ggml.token_type', { i32s: types }],
      ['tokenizer.ggml.bos_token_id', { u32: 1 }],
      ['tokenizer.ggml.eos_token_id', { u32: 4 }],
      ['tokenizer.ggml.unknown_token_id', { u32: 0 }],
      ['tokenizer.ggml.add_bos_token', { bool: false }],
      ['tokenizer.chat_template', { str: CHAT_TEMPLATE }],
    ],
    tensors,
  );
  return { vocabulary };
}
