// The level curve of docs/decisions.md: level L → L+1 takes 10·L XP, 2 XP per completed scan.
import { describe, expect, it } from 'vitest';
import { XP_PER_SCAN } from '@sentinelle/contracts';
import { levelOf } from './levels.js';

describe('levelOf', () => {
  it('follows 10·L XP per level', () => {
    expect(levelOf(0)).toEqual({ level: 1, progressPercent: 0 });
    expect(levelOf(9)).toEqual({ level: 1, progressPercent: 90 });
    expect(levelOf(10)).toEqual({ level: 2, progressPercent: 0 });
    expect(levelOf(25)).toEqual({ level: 2, progressPercent: 75 });
    expect(levelOf(30)).toEqual({ level: 3, progressPercent: 0 });
    // Level 10 needs 10·(1+…+9) = 450 XP.
    expect(levelOf(449).level).toBe(9);
    expect(levelOf(450)).toEqual({ level: 10, progressPercent: 0 });
  });

  it('needs 5 completed scans for level 2, 15 for level 3', () => {
    expect(levelOf(4 * XP_PER_SCAN).level).toBe(1);
    expect(levelOf(5 * XP_PER_SCAN).level).toBe(2);
    expect(levelOf(15 * XP_PER_SCAN).level).toBe(3);
  });

  it('treats odd input as no XP', () => {
    expect(levelOf(-5)).toEqual({ level: 1, progressPercent: 0 });
    expect(levelOf(Number.NaN).level).toBe(1);
  });
});
