// The needle prefilter: never misses a needle (any case), says no when there is none.
import { describe, expect, it } from 'vitest';
import { NeedleFilter } from './textSearch.js';

describe('NeedleFilter', () => {
  const f = new NeedleFilter(['kvacdoor.xyz', 'stage1.php', 'gblk', 'DontRunStringCodePLZ']);
  it('finds needles anywhere, in any case', () => {
    expect(f.mayContain('http.Fetch("https://KVACDOOR.xyz/x")')).toBe(true);
    expect(f.mayContain('x/stage1.php')).toBe(true);
    expect(f.mayContain('local dontrunstringcodeplz = 1')).toBe(true);
    expect(f.mayContain('gblk')).toBe(true);
  });
  it('answers no for ordinary code and near misses', () => {
    expect(f.mayContain('print("hello world") -- kvacdoor.xy')).toBe(false);
    expect(f.mayContain('')).toBe(false);
    expect(f.mayContain('sta')).toBe(false);
  });
});
