// The archive layer reading from the file system: a .zip or .gma path, an unpacked addon
// folder (symlinks never followed), and a large mostly-asset archive in bounded memory.
import { execFileSync } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import {
  mkdtempSync,
  openSync,
  closeSync,
  writeSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  mkdirSync,
  readFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { buildGma } from './archiveFixtures.js';
import { readArchive, UnusableArchiveError } from './index.js';

const MiB = 1024 * 1024;
const SAMPLES = '/work/shared/samples';
const temp = mkdtempSync(join(tmpdir(), 'sentinelle-archive-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('readArchive on a path', () => {
  it('reads a .zip file and hashes the file', async () => {
    const zip = zipSync({ 'lua/autorun/a.lua': new TextEncoder().encode('print(1)') });
    const file = join(temp, 'addon.zip');
    writeFileSync(file, zip);
    const contents = await readArchive(file);
    expect(contents.entries.map((e) => [e.path, e.kind])).toEqual([['lua/autorun/a.lua', 'lua']]);
    expect(contents.sha256).toBe(createHash('sha256').update(zip).digest('hex'));
  });

  it('reads a .gma file', async () => {
    const file = join(temp, 'addon.gma');
    writeFileSync(file, buildGma([{ name: 'lua/autorun/b.lua', data: 'print(2)' }]));
    const contents = await readArchive(file);
    expect(contents.entries.map((e) => [e.path, e.kind])).toEqual([['lua/autorun/b.lua', 'lua']]);
  });

  it('says what is wrong with an unusable path', async () => {
    const textFile = join(temp, 'notes.txt');
    writeFileSync(textFile, 'not an archive at all');
    const truncated = join(temp, 'truncated.zip');
    writeFileSync(
      truncated,
      zipSync({ 'a.lua': new Uint8Array(5000).fill(65) }, { level: 0 }).subarray(0, 2000),
    );
    const codes = [];
    for (const path of [textFile, truncated, join(temp, 'missing.zip')]) {
      const err = await readArchive(path).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnusableArchiveError);
      codes.push((err as UnusableArchiveError).code);
    }
    expect(codes).toEqual(['not_zip', 'corrupt', 'not_zip']);
  });
});

describe('readArchive on a folder', () => {
  it('reads a sample addon and classifies its files by content', async () => {
    const contents = await readArchive(`${SAMPLES}/malicious/mal-15-crates-vmt-hidden-lua`);
    const kindOf = (p: string) => contents.entries.find((e) => e.path === p)?.kind;
    expect(kindOf('materials/models/supplycrate/crate_glow.vmt')).toBe('lua_in_asset');
    expect(kindOf('materials/models/supplycrate/crate_diffuse.vmt')).toBe('text');
    expect(kindOf('lua/entities/ent_supply_crate/init.lua')).toBe('lua');
    expect(contents.findings).toEqual([]);
    expect(contents.sha256).toBe(
      (await readArchive(`${SAMPLES}/malicious/mal-15-crates-vmt-hidden-lua`)).sha256,
    );
  });

  it('reads binary modules and maps of sample addons', async () => {
    const modules = await readArchive(`${SAMPLES}/malicious/mal-17-chttpfix-binary-module`);
    const win32 = modules.entries.find((e) => e.path === 'lua/bin/gmsv_chttpfix_win32.dll')!;
    expect(win32.kind).toBe('binary_module');
    expect(win32.strings).toContain('RunStringG');
    const map = await readArchive(`${SAMPLES}/malicious/mal-27-harbor-map-luarun`);
    expect(map.entries.find((e) => e.kind === 'map')?.mapEntities).toContain('lua_run');
  });

  it('reports symlinks without following them', async () => {
    const root = join(temp, 'linked-addon');
    mkdirSync(join(root, 'lua/autorun'), { recursive: true });
    writeFileSync(join(root, 'lua/autorun/ok.lua'), 'print(1)');
    symlinkSync('/etc/passwd', join(root, 'lua/autorun/passwd.lua'));
    symlinkSync('/etc', join(root, 'lua/etc'));
    // A named pipe would block a reader forever: it is reported, never opened.
    execFileSync('mkfifo', [join(root, 'lua/pipe.lua')]);
    const contents = await readArchive(root);
    expect(contents.entries.map((e) => e.path)).toEqual(['lua/autorun/ok.lua']);
    expect(contents.findings.map((f) => [f.kind, f.path])).toEqual([
      ['symlink', 'lua/autorun/passwd.lua'],
      ['symlink', 'lua/etc'],
      ['corrupt_entry', 'lua/pipe.lua'],
    ]);
    expect(contents.fileCount).toBe(4);
  });
});

describe('readArchive memory', () => {
  it('reads a ~200 MB mostly-asset zip from a file without holding its assets', async () => {
    const file = join(temp, 'big.zip');
    const fd = openSync(file, 'w');
    const central: Buffer[] = [];
    let offset = 0;
    const chunk = Buffer.alloc(4 * MiB);
    const count = 50;
    for (let i = 0; i <= count; i++) {
      // 50 incompressible 4 MiB models (stored), then one Lua file.
      const data = i < count ? randomFillSync(chunk) : Buffer.from('RunString(net.ReadString())');
      const name = Buffer.from(i < count ? `models/m${i}.mdl` : 'lua/autorun/x.lua');
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt32LE(crc32(data), 14);
      local.writeUInt32LE(data.length, 18);
      local.writeUInt32LE(data.length, 22);
      local.writeUInt16LE(name.length, 26);
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(20, 6);
      header.writeUInt32LE(crc32(data), 16);
      header.writeUInt32LE(data.length, 20);
      header.writeUInt32LE(data.length, 24);
      header.writeUInt16LE(name.length, 28);
      header.writeUInt32LE(offset, 42);
      central.push(header, name);
      writeSync(fd, Buffer.concat([local, name]));
      writeSync(fd, data);
      offset += 30 + name.length + data.length;
    }
    const centralBytes = Buffer.concat(central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(count + 1, 8);
    end.writeUInt16LE(count + 1, 10);
    end.writeUInt32LE(centralBytes.length, 12);
    end.writeUInt32LE(offset, 16);
    writeSync(fd, Buffer.concat([centralBytes, end]));
    closeSync(fd);

    global.gc?.();
    const before = process.memoryUsage();
    let peak = 0;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(
        peak,
        now.heapUsed + now.arrayBuffers - before.heapUsed - before.arrayBuffers,
      );
    }, 5);
    const contents = await readArchive(file);
    clearInterval(sampler);

    expect(contents.fileCount).toBe(count + 1);
    expect(contents.entries.find((e) => e.path === 'lua/autorun/x.lua')?.kind).toBe('lua');
    expect(contents.entries.filter((e) => e.kind === 'asset')).toHaveLength(count);
    expect(contents.sha256).toBe(createHash('sha256').update(readFileSync(file)).digest('hex'));
    // 200 MB went through; what stayed alive at any time is a few stream buffers.
    expect(peak).toBeLessThan(64 * MiB);
  });
});
