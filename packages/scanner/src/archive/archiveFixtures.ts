// Test support: builds ZIP, GMA and BSP bytes in memory, including the malformed shapes
// (lying sizes, shared offsets, odd flags) that ordinary ZIP writers refuse to produce.
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipFixtureEntry {
  name: string;
  data?: Uint8Array | string;
  /** Deflate (default) or store. */
  method?: 'deflate' | 'store';
  /** General-purpose flags, e.g. 0x1 to mark the entry encrypted. */
  flags?: number;
  /** Unix mode stored in the external attributes (e.g. 0o120777 for a symlink). */
  unixMode?: number;
  /** Overrides the uncompressed size written in the headers (a lying header). */
  declaredSize?: number;
  /** Points the central directory at another entry's local header (by index): overlapping entries. */
  shareLocalHeaderOf?: number;
}

function toBytes(data: Uint8Array | string | undefined): Buffer {
  if (data === undefined) return Buffer.alloc(0);
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
}

/** A ZIP with full control over every header field that matters to the reader. */
export function buildZip(entries: ZipFixtureEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  const offsets: number[] = [];
  const sizes: { compressed: number; crc: number; size: number; method: number }[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const raw = toBytes(entry.data);
    const method = entry.method === 'store' ? 0 : 8;
    const body = method === 8 ? deflateRawSync(raw) : raw;
    const size = entry.declaredSize ?? raw.length;
    const crc = crc32(raw);
    const flags = (entry.flags ?? 0) | 0x800;
    let localOffset = offset;
    let info = { compressed: body.length, crc, size, method };
    if (entry.shareLocalHeaderOf !== undefined) {
      localOffset = offsets[entry.shareLocalHeaderOf]!;
      info = sizes[entry.shareLocalHeaderOf]!;
    } else {
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(flags, 6);
      local.writeUInt16LE(method, 8);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(body.length, 18);
      local.writeUInt32LE(size, 22);
      local.writeUInt16LE(name.length, 26);
      locals.push(local, name, body);
      offset += 30 + name.length + body.length;
    }
    offsets.push(localOffset);
    sizes.push(info);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(entry.unixMode !== undefined ? (3 << 8) | 20 : 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(info.method, 10);
    central.writeUInt32LE(info.crc, 16);
    central.writeUInt32LE(info.compressed, 20);
    central.writeUInt32LE(info.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(entry.unixMode !== undefined ? (entry.unixMode << 16) >>> 0 : 0, 38);
    central.writeUInt32LE(localOffset, 42);
    centrals.push(central, name);
  }
  const centralBytes = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  if (entries.length <= 0xffff) {
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    return Buffer.concat([...locals, centralBytes, end]);
  }
  // More than 65 535 entries need the ZIP64 end records.
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  const zip64End = Buffer.alloc(56);
  zip64End.writeUInt32LE(0x06064b50, 0);
  zip64End.writeBigUInt64LE(44n, 4);
  zip64End.writeUInt16LE(45, 12);
  zip64End.writeUInt16LE(45, 14);
  zip64End.writeBigUInt64LE(BigInt(entries.length), 24);
  zip64End.writeBigUInt64LE(BigInt(entries.length), 32);
  zip64End.writeBigUInt64LE(BigInt(centralBytes.length), 40);
  zip64End.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + centralBytes.length), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([...locals, centralBytes, zip64End, locator, end]);
}

export interface GmaFixtureFile {
  name: string;
  data: Uint8Array | string;
  /** Overrides the size written in the file table. */
  declaredSize?: number;
}

/** A Garry's Mod addon (.gma, version 3). */
export function buildGma(files: GmaFixtureFile[], options: { truncateAt?: number } = {}): Buffer {
  const cstr = (s: string): Buffer => Buffer.concat([Buffer.from(s, 'utf8'), Buffer.from([0])]);
  const u32 = (n: number): Buffer => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n, 0);
    return b;
  };
  const head = [
    Buffer.from('GMAD'),
    Buffer.from([3]),
    Buffer.alloc(16),
    cstr(''),
    cstr('Fixture addon'),
    cstr('{"description":"x"}'),
    cstr('Author'),
    u32(1),
  ];
  const table: Buffer[] = [];
  const bodies: Buffer[] = [];
  files.forEach((file, i) => {
    const body = toBytes(file.data);
    const size = Buffer.alloc(8);
    size.writeBigInt64LE(BigInt(file.declaredSize ?? body.length), 0);
    table.push(u32(i + 1), cstr(file.name), size, u32(crc32(body)));
    bodies.push(body);
  });
  table.push(u32(0));
  const whole = Buffer.concat([...head, ...table, ...bodies, u32(0)]);
  return options.truncateAt !== undefined ? whole.subarray(0, options.truncateAt) : whole;
}

/** A VBSP map whose only non-empty lumps are the entity text and, optionally, a pakfile ZIP. */
export function buildBsp(entities: string, pakfile?: Uint8Array): Buffer {
  const header = Buffer.alloc(8 + 64 * 16 + 4);
  header.write('VBSP', 0, 'latin1');
  header.writeInt32LE(20, 4);
  const entityBytes = Buffer.concat([Buffer.from(entities, 'utf8'), Buffer.from([0])]);
  header.writeInt32LE(header.length, 8);
  header.writeInt32LE(entityBytes.length, 12);
  const parts: Buffer[] = [header, entityBytes];
  if (pakfile) {
    const at = 8 + 40 * 16;
    header.writeInt32LE(header.length + entityBytes.length, at);
    header.writeInt32LE(pakfile.length, at + 4);
    parts.push(Buffer.from(pakfile));
  }
  return Buffer.concat(parts);
}

/** A tiny PE-shaped binary carrying the given strings. */
export function buildPeModule(strings: string[]): Buffer {
  const dos = Buffer.alloc(0x80);
  dos.write('MZ', 0, 'latin1');
  dos.writeUInt32LE(0x40, 0x3c);
  dos.write('PE\0\0', 0x40, 'latin1');
  const body = Buffer.concat(
    strings.map((s) =>
      Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(s, 'latin1'), Buffer.from([0])]),
    ),
  );
  return Buffer.concat([dos, body]);
}

/** Binary bytes no text run is made of (NUL, control bytes, >= 0x80), from a fixed seed. */
export function noise(length: number, seed: number): Buffer {
  const out = Buffer.allocUnsafe(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const v = x >>> 24;
    out[i] = v >= 0x80 ? v : v & 0x07;
  }
  return out;
}
