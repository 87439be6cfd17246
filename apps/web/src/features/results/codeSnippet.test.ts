import { describe, expect, it } from 'vitest';
import { foldSimilarLines, splitDangerous } from './codeSnippet.js';

describe('splitDangerous', () => {
  it('marks dangerous calls and keeps the rest of the line intact', () => {
    const pieces = splitDangerous(
      'http.Fetch(u, function(b) RunStringEx(b) end) ply:SetUserGroup("superadmin")',
    );
    expect(pieces.filter((p) => p.dangerous).map((p) => p.text)).toEqual([
      'http.Fetch',
      'RunStringEx',
      'SetUserGroup',
    ]);
    expect(pieces.map((p) => p.text).join('')).toBe(
      'http.Fetch(u, function(b) RunStringEx(b) end) ply:SetUserGroup("superadmin")',
    );
  });

  it('does not mark names that merely contain a dangerous name', () => {
    const pieces = splitDangerous('MyRunString(x) local RunStringer = 1 foo.RunString(x)');
    expect(pieces.some((p) => p.dangerous)).toBe(false);
  });
});

describe('foldSimilarLines', () => {
  it('folds a long run of look-alike lines into a hidden-lines note', () => {
    const rows = foldSimilarLines(
      [
        'local t = {',
        ...Array.from({ length: 8 }, (_, i) => `  ${i * 7}, ${i + 100}, "x${i}",`),
        '}',
      ].join('\n'),
    );
    expect(rows.map((r) => r.kind)).toEqual(['line', 'line', 'line', 'hidden', 'line']);
    expect(rows[3]).toEqual({ kind: 'hidden', count: 6 });
  });

  it('keeps short runs and different lines as they are', () => {
    const code = 'a = 1\na = 2\na = 3\nb()\n\n\nc()';
    expect(foldSimilarLines(code)).toEqual(
      code.split('\n').map((text) => ({ kind: 'line', text })),
    );
  });
});
