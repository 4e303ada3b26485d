/**
 * Writes a zip archive from entries whose data is already stored or compressed: used to hand a
 * checked archive to a streaming reader with its entries in the order that reader needs, and by
 * the tests to build honest and hostile archives.
 */

export interface ZipRecord {
  name: string;
  /** 0 = stored, 8 = deflated. */
  method: number;
  /** CRC-32 and size of the uncompressed data, as the headers state them. */
  crc: number;
  size: number;
  /** The entry's data as stored in the archive (compressed when method is 8). */
  data: Uint8Array;
}

const u16 = (n: number) => [n & 0xff, (n >>> 8) & 0xff];
const u32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
/** Bit 11: names are UTF-8. */
const UTF8_NAMES = 0x800;

/** `unlisted` entries are written but left out of the central directory (a smuggling test case). */
export function encodeZip(records: readonly ZipRecord[], options: { unlisted?: ReadonlySet<string> } = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: number[] = [];
  let listed = 0;
  let offset = 0;
  for (const record of records) {
    const name = new TextEncoder().encode(record.name);
    const fields = [
      ...u16(20),
      ...u16(UTF8_NAMES),
      ...u16(record.method),
      ...u16(0),
      ...u16(0x21),
      ...u32(record.crc),
      ...u32(record.data.byteLength),
      ...u32(record.size),
      ...u16(name.byteLength),
      ...u16(0),
    ];
    const local = new Uint8Array([...u32(0x04034b50), ...fields, ...name]);
    if (!options.unlisted?.has(record.name)) {
      central.push(...u32(0x02014b50), ...u16(20), ...fields, ...u16(0), ...u16(0), ...u16(0), ...u32(0), ...u32(offset), ...name);
      listed++;
    }
    parts.push(local, record.data);
    offset += local.byteLength + record.data.byteLength;
  }
  const directory = new Uint8Array(central);
  const end = new Uint8Array([
    ...u32(0x06054b50),
    ...u16(0),
    ...u16(0),
    ...u16(listed),
    ...u16(listed),
    ...u32(directory.byteLength),
    ...u32(offset),
    ...u16(0),
  ]);
  return new Uint8Array(Buffer.concat([...parts, directory, end]));
}
