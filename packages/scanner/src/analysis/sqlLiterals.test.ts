// The constant SELECTs SQLite decodes for a loader (see sqlLiterals.ts).
import { describe, expect, it } from 'vitest';
import { selectedLiterals } from './sqlLiterals.js';

describe('selectedLiterals', () => {
  it('decodes hex blobs, char() and unhex(), joined by ||, with their column names', () => {
    expect(selectedLiterals("SELECT CAST(X'7072696E74283129' AS TEXT) AS src")).toEqual([
      { name: 'src', text: 'print(1)' },
    ]);
    expect(selectedLiterals("select char(82,117,110) || 'String', unhex('41') as b;")).toEqual([
      { name: "char(82,117,110) || 'String'", text: 'RunString' },
      { name: 'b', text: 'A' },
    ]);
    expect(selectedLiterals("SELECT 'it''s'")).toEqual([{ name: "'it''s'", text: "it's" }]);
  });
  it('leaves alone any query that reads a table or calls what it does not evaluate', () => {
    expect(selectedLiterals("SELECT value FROM meta WHERE key = 'schema'")).toBeUndefined();
    expect(selectedLiterals("SELECT X'41' FROM t")).toBeUndefined();
    expect(selectedLiterals('SELECT sqlite_version()')).toBeUndefined();
    expect(selectedLiterals("SELECT CAST(X'41' AS INTEGER)")).toBeUndefined();
    expect(selectedLiterals("SELECT X'4'")).toBeUndefined();
    expect(selectedLiterals('CREATE TABLE t (a TEXT)')).toBeUndefined();
  });
});
