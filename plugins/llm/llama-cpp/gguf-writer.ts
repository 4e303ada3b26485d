/**
 * Writes GGUF files for tests of the in-process runtime (the tiny model they load: tiny-gguf.ts).
 * Hand-written because no package writes GGUF from JavaScript; it follows the GGUF v3 layout of
 * ggml's docs/gguf.md: magic `GGUF`, version 3, tensor count, metadata count, the metadata
 * key/values (typed), the tensor infos (name, dimensions innermost first, type, offset), padding to
 * `general.alignment` (32), then each tensor's data, aligned. Weights are F32.
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
