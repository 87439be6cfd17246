// The text scans: the first matching line is the one a line-by-line test finds, and the
// needle prefilter never misses a needle (any case) and says no when there is none.
import { describe, expect, it } from 'vitest';
import { firstLineMatching, NeedleFilter } from './textSearch.js';

describe('NeedleFilter', () => {
  const f = new NeedleFilter(['kvacdoor.xyz', 'stage1.php', 'gblk', 'DontRunStringCodePLZ']);
  it('finds needles anywhere, in any case', () => {
    expect(f.mayContain('http.Fetch("https://KVACDOOR.xyz/x")')).toBe(true);
    expect(f.mayContain('x/stage1.php')).toBe(true);
    expect(f.mayContain('local dontrunstringcodeplz = 1')).toBe(true);
    expect(f.mayContain('gblk')).toBe(true);
  });
  it('finds long and short needles at every alignment, up to the last byte', () => {
    const g = new NeedleFilter(['omega-project.cz', 'local OMEGA', 'drm.gm', 'ab']);
    for (const needle of ['OMEGA-PROJECT.CZ', 'local omega', 'Drm.Gm', 'aB'])
      for (let pad = 0; pad < 8; pad++) {
        expect(g.mayContain('x'.repeat(pad) + needle), `${pad} ${needle}`).toBe(true);
        expect(g.mayContain('x'.repeat(pad) + needle + '\n-- end'), `${pad} ${needle}`).toBe(true);
      }
    expect(g.mayContain('omega-project.c')).toBe(false);
    expect(g.mayContain('mega-project.cz')).toBe(false);
    expect(g.mayContain('local OMEG\nA')).toBe(false);
  });
  it('answers no for ordinary code and near misses', () => {
    expect(f.mayContain('print("hello world") -- kvacdoor.xy')).toBe(false);
    expect(f.mayContain('')).toBe(false);
    expect(f.mayContain('sta')).toBe(false);
  });
});

describe('firstLineMatching', () => {
  const fileOf = (text: string) => ({ text, lines: text.split(/\r?\n|\r/) });
  it('gives the first line on which the pattern matches, across \\n, \\r\\n and \\r', () => {
    const f = fileOf('local a = 1\r\nwhile true do end\rprint(1)\nwhile true do end');
    expect(firstLineMatching(f, /while\s+true\s+do\s+end/, ['while'])).toBe(1);
    expect(firstLineMatching(fileOf('a\rb\r\nstring.dump(f)'), /string\.dump\s*\(/)).toBe(2);
  });
  it('does not join lines: a match across a line break is no match', () => {
    expect(firstLineMatching(fileOf('while true\ndo end'), /while\s+true\s+do\s+end/)).toBe(-1);
  });
  it('answers -1 without splitting when a required literal is absent', () => {
    let split = false;
    const f = {
      text: 'while true do end',
      get lines() {
        split = true;
        return ['while true do end'];
      },
    };
    expect(firstLineMatching(f, /while\s+true\s+do\s+end/, ['repeat'])).toBe(-1);
    expect(split).toBe(false);
    expect(firstLineMatching(f, /while\s+true\s+do\s+end/, ['repeat', 'while'])).toBe(0);
  });
});
