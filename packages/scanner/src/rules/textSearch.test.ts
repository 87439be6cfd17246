// The text scans: the first matching line is the one a line-by-line test finds, and the
// needle prefilter never misses a needle (any case) and says no when there is none.
import { describe, expect, it } from 'vitest';
import { execAtLiteral, firstLineMatching, NeedleFilter } from './textSearch.js';

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
  it('finds needles of 4 to 6 bytes whatever byte stands next to them', () => {
    // Where such a needle holds 3 bytes of a word, the word is looked up under every value
    // of the fourth byte, which is the text's byte before or after the needle.
    for (const needle of ['wxyz', 'vwxyz', 'uvwxyz']) {
      const g = new NeedleFilter([needle]);
      for (let pad = 0; pad < 8; pad++)
        for (let b = 0; b < 256; b++) {
          const next = String.fromCharCode(b);
          const cased = pad % 2 ? needle.toUpperCase() : needle;
          const at = `${pad} ${needle} ${b}`;
          expect(g.mayContain('-'.repeat(pad) + next + cased + next), at).toBe(true);
          expect(g.mayContain('-'.repeat(pad) + next + cased), at).toBe(true);
          expect(g.mayContain('-'.repeat(pad) + cased.slice(1) + next + '--'), at).toBe(false);
        }
    }
  });
  it('finds exact-case needles as written, short ones by a native search', () => {
    const g = new NeedleFilter(['kvac.cz'], ['gblk', 'RunHASHOb', 'KVAC.cz']);
    for (let pad = 0; pad < 8; pad++) {
      expect(g.mayContain('x'.repeat(pad) + 'gblk'), `${pad}`).toBe(true);
      expect(g.mayContain('x'.repeat(pad) + 'RunHASHOb()'), `${pad}`).toBe(true);
    }
    expect(g.mayContain('local GBLK = 1')).toBe(false);
    expect(g.mayContain('gbl k')).toBe(false);
    // An exact needle also found in any case is the folded one: any case.
    expect(g.mayContain('KvAc.Cz')).toBe(true);
  });
  it('marks other needles found in the same pass, each by its own bit', () => {
    const g = new NeedleFilter(
      ['kvac.cz'],
      ['gblk'],
      [
        ['string.dump', 2],
        ['ab', 4],
        ['\x1bLJ', 8],
      ],
    );
    for (let pad = 0; pad < 8; pad++) {
      const x = 'x'.repeat(pad);
      expect(g.marksIn(x + 'String.DUMP(f)'), `${pad}`).toBe(2);
      expect(g.marksIn(x + 'ab'), `${pad}`).toBe(4);
      expect(g.marksIn(x + '\x1bLJ' + x), `${pad}`).toBe(8);
      expect(g.marksIn(x + 'string.dump ab kvac.cz'), `${pad}`).toBe(1 | 2 | 4);
      expect(g.mayContain(x + 'string.dump ab'), `${pad}`).toBe(false);
      expect(g.mayContain(x + 'string.dump kvac.CZ'), `${pad}`).toBe(true);
    }
    expect(g.marksIn('string.dum p a b gbl')).toBe(0);
    // Once the wanted marks are found, the pass may end without the others.
    expect(g.marksIn('gblk string.dump', 1) & 1).toBe(1);
  });
  it('reads texts larger than the kept buffer', () => {
    const big = 'x'.repeat(9 << 20);
    expect(f.mayContain(big + 'Stage1.PHP')).toBe(true);
    expect(f.mayContain(big)).toBe(false);
    expect(f.mayContain('x/stage1.php')).toBe(true);
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
    expect(firstLineMatching(f, /while\s+true\s+do\s+end/, { contains: ['while'] })).toBe(1);
    expect(firstLineMatching(f, /while\s+true\s+do\s+end/, { startsWith: 'while' })).toBe(1);
    expect(firstLineMatching(fileOf('a\rb\r\nstring.dump(f)'), /string\.dump\s*\(/)).toBe(2);
  });
  it('does not join lines: a match across a line break is no match', () => {
    const split = fileOf('while x do end\nwhile true\ndo end');
    expect(firstLineMatching(split, /while\s+true\s+do\s+end/)).toBe(-1);
    expect(firstLineMatching(split, /while\s+true\s+do\s+end/, { startsWith: 'while' })).toBe(-1);
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
    expect(firstLineMatching(f, /while\s+true\s+do\s+end/, { contains: ['repeat'] })).toBe(-1);
    expect(split).toBe(false);
    expect(firstLineMatching(f, /while\s+true\s+do\s+end/, { contains: ['repeat', 'while'] })).toBe(
      0,
    );
  });
});

describe('execAtLiteral', () => {
  it('finds the same leftmost match as the pattern over the whole text', () => {
    const text =
      'while a do end\nwhile pc <= #p do local op = p[pc] end\nwhile i <= #t do local x = t[i] end';
    const pattern =
      /while\s+\w+\s*<=?\s*#\s*\w+\s+do[\s\S]{0,200}?local\s+(\w+)\s*=\s*\w+\[\s*\w+\s*\]/;
    const m = execAtLiteral({ text }, pattern, 'while');
    const whole = pattern.exec(text);
    expect(m?.index).toBe(whole?.index);
    expect(m?.[1]).toBe('op');
    expect(execAtLiteral({ text: 'whilewhile true' }, /while true/, 'while')?.index).toBe(5);
    expect(execAtLiteral({ text: 'no loop here' }, pattern, 'while')).toBeNull();
    const remembered = { positionsOf: () => [15] };
    expect(execAtLiteral({ text }, pattern, 'while', remembered)?.[1]).toBe('op');
  });
});
