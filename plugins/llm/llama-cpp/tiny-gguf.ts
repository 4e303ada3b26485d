/**
 * Writes a GGUF model file for tests of the in-process runtime: a real llama architecture with
 * tiny dimensions and random weights, so llama.cpp loads it, tokenizes, applies its chat
 * template and generates (nonsense, but under a grammar valid JSON). The file format: gguf-writer.ts.
 */
import { type GgufTensor, writeGguf } from './gguf-writer.ts';

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
