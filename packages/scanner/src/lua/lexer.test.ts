// The GLua lexer on every token family: names and keywords, LuaJIT numerals, every string
// escape, long brackets, GLua's C-style operators and comments, positions and byte input.
import { describe, expect, it } from 'vitest';
import { parseLua, tokenize, type Token } from './index.js';
import { Diagnostics, Lexer, numeralValue, parseNumeral } from './lexer.js';

function kinds(tokens: Token[]): string[] {
  return tokens.map((t) => `${t.kind}:${t.value}`);
}

function onlyString(source: string | Uint8Array): Token {
  const tokens = tokenize(source);
  expect(tokens).toHaveLength(1);
  expect(tokens[0]!.kind).toBe('String');
  return tokens[0]!;
}

describe('names and keywords', () => {
  it('separates keywords from names, GLua continue included', () => {
    expect(kinds(tokenize('local function_ = continue while1 nil'))).toEqual([
      'Keyword:local',
      'Name:function_',
      'Punct:=',
      'Keyword:continue',
      'Name:while1',
      'Keyword:nil',
    ]);
  });

  it('keeps goto a name so that ulx.goto still parses', () => {
    expect(kinds(tokenize('ulx.goto goto'))).toEqual([
      'Name:ulx',
      'Punct:.',
      'Name:goto',
      'Name:goto',
    ]);
  });

  it('accepts bytes >= 0x80 in names, as LuaJIT does', () => {
    const tokens = tokenize(new Uint8Array([0x63, 0xc3, 0xa9, 0x20, 0x3d]));
    expect(tokens[0]).toMatchObject({ kind: 'Name', value: 'c\xc3\xa9' });
  });
});

describe('numerals', () => {
  const cases: Array<[string, number]> = [
    ['3', 3],
    ['3.0', 3],
    ['3.', 3],
    ['.5', 0.5],
    ['1e3', 1000],
    ['1E-2', 0.01],
    ['2.5e+1', 25],
    ['0x1F', 31],
    ['0XfF', 255],
    ['0x.8', 0.5],
    ['0x1p4', 16],
    ['0x1P-2', 0.25],
    ['0xA.8p1', 21],
    ['10LL', 10],
    ['10ull', 10],
    ['0x10ULL', 16],
    ['12i', 12],
    ['1.5I', 1.5],
  ];
  for (const [raw, value] of cases) {
    it(`reads ${raw}`, () => {
      const tokens = tokenize(raw);
      expect(tokens).toHaveLength(1);
      expect(tokens[0]).toMatchObject({ kind: 'Number', value: raw });
      expect(numeralValue(raw)).toEqual(value);
    });
  }

  it('rejects malformed numerals like LuaJIT', () => {
    for (const raw of ['1..2', '0x', '3e', '1.5LL', '0xg', '12abc']) {
      const result = parseLua(`x = ${raw}`);
      expect(result.errors.length, raw).toBeGreaterThan(0);
      expect(result.errors[0]!.message).toContain('malformed number');
    }
    expect(parseNumeral('Infinity')).toBeNaN();
  });

  it('stops a hex numeral sign only after p', () => {
    expect(kinds(tokenize('0xe+1'))).toEqual(['Number:0xe', 'Punct:+', 'Number:1']);
  });
});

describe('string escapes', () => {
  const simple: Array<[string, string]> = [
    ['\\a', '\x07'],
    ['\\b', '\b'],
    ['\\f', '\f'],
    ['\\n', '\n'],
    ['\\r', '\r'],
    ['\\t', '\t'],
    ['\\v', '\v'],
    ['\\\\', '\\'],
    ['\\"', '"'],
    ["\\'", "'"],
  ];
  for (const [escape, value] of simple) {
    it(`decodes ${escape}`, () => {
      const t = onlyString(`"x${escape}y"`);
      expect(t.value).toBe(`x${value}y`);
      expect(t.escaped).toBe(false);
    });
  }

  it('decodes a backslash-newline as a newline (LF, CRLF and CR)', () => {
    for (const nl of ['\n', '\r\n', '\r']) {
      const tokens = tokenize(`"a\\${nl}b" c`);
      expect(tokens[0]!.value).toBe('a\nb');
      expect(tokens[1]).toMatchObject({ value: 'c', line: 2, column: 4 });
    }
  });

  it('decodes decimal escapes of one to three digits', () => {
    const t = onlyString('"\\72\\101\\108\\108\\111\\0\\0009\\255"');
    expect(t.value).toBe('Hello\x00\x009\xff');
    expect(t.escaped).toBe(true);
  });

  it('reports a decimal escape above 255', () => {
    const result = parseLua('x = "\\256"');
    expect(result.errors[0]!.message).toContain('decimal escape too large');
  });

  it('decodes \\xNN and rejects a short one', () => {
    expect(onlyString('"\\x52\\x75\\x6e\\x53"').value).toBe('RunS');
    expect(parseLua('x = "\\x5"').errors[0]!.message).toContain('\\x');
  });

  it('skips whitespace and line breaks after \\z', () => {
    const tokens = tokenize('"Run\\z\n      \t String" x');
    expect(tokens[0]).toMatchObject({ value: 'RunString', escaped: true });
    expect(tokens[1]).toMatchObject({ value: 'x', line: 2 });
  });

  it('encodes \\u{XXXX} as UTF-8 bytes', () => {
    expect(onlyString('"\\u{48}\\u{E9}\\u{20AC}\\u{1F600}"').value).toBe(
      'H\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80',
    );
    expect(parseLua('x = "\\u{}"').errors.length).toBe(1);
  });

  it('reports an unknown escape but keeps the byte', () => {
    const result = parseLua('x = "a\\qb"');
    expect(result.errors[0]!.message).toContain('invalid escape');
    const stmt = result.chunk.body[0];
    expect(
      stmt?.type === 'AssignmentStatement' &&
        stmt.init[0]?.type === 'StringLiteral' &&
        stmt.init[0].value,
    ).toBe('aqb');
  });

  it('keeps non-ASCII bytes as one char per byte', () => {
    const bytes = new Uint8Array([0x22, 0xc3, 0xa9, 0xff, 0x22]);
    expect(onlyString(bytes).value).toBe('\xc3\xa9\xff');
  });

  it('reports an unfinished string at its opening quote', () => {
    const result = parseLua('x = 1\ny = "abc\nz = 2');
    expect(result.errors[0]).toMatchObject({ message: 'unfinished string', line: 2, column: 5 });
  });
});

describe('long brackets', () => {
  it('reads strings of every level, dropping the first line break only', () => {
    expect(onlyString('[[a]]').value).toBe('a');
    expect(onlyString('[==[a]]b]=]c]==]').value).toBe('a]]b]=]c');
    expect(onlyString('[[\nline1\nline2]]').value).toBe('line1\nline2');
    expect(onlyString('[[\r\n\r\nx]]').value).toBe('\r\nx');
    expect(onlyString(`[${'='.repeat(12)}[x]${'='.repeat(12)}]`).value).toBe('x');
  });

  it('does not decode escapes inside long strings', () => {
    const t = onlyString('[[\\x41\\n]]');
    expect(t.value).toBe('\\x41\\n');
    expect(t.escaped).toBe(false);
  });

  it('tracks lines across long strings and comments', () => {
    const tokens = tokenize('a = [[\nx\ny]] --[==[\ncomment\n]==] b');
    expect(tokens.at(-1)).toMatchObject({ value: 'b', line: 5, column: 6 });
  });

  it('reads long comments of every level and keeps --[= as a line comment', () => {
    const result = parseLua('--[[ one ]] --[=[ two ]] ]=]\n--[= three\nx = 1');
    expect(result.comments.map((c) => [c.style, c.value])).toEqual([
      ['lua-block', ' one '],
      ['lua-block', ' two ]] '],
      ['lua-line', '[= three'],
    ]);
    expect(result.errors).toEqual([]);
  });

  it('reports an unfinished long string and comment', () => {
    expect(parseLua('x = [==[ abc ]]').errors[0]!.message).toBe('unfinished long string');
    expect(parseLua('--[[ abc').errors[0]!.message).toBe('unfinished long comment');
  });
});

describe('GLua syntax', () => {
  it('normalises C-style operators and marks them', () => {
    const tokens = tokenize('a != b && c || !d');
    expect(kinds(tokens)).toEqual([
      'Name:a',
      'Punct:~=',
      'Name:b',
      'Keyword:and',
      'Name:c',
      'Keyword:or',
      'Keyword:not',
      'Name:d',
    ]);
    expect(tokens.filter((t) => t.glua).map((t) => t.value)).toEqual(['~=', 'and', 'or', 'not']);
    expect(parseLua('x = a != b && c || !d').facts.gluaOperatorCount).toBe(4);
    expect(parseLua('x = a ~= b and c or not d').facts.gluaOperatorCount).toBe(0);
  });

  it('reads // and /* */ comments and counts them', () => {
    const result = parseLua('x = 1 // line\n/* block\nover lines */ y = 2 -- lua');
    expect(result.comments.map((c) => [c.style, c.value])).toEqual([
      ['c-line', ' line'],
      ['c-block', ' block\nover lines '],
      ['lua-line', ' lua'],
    ]);
    expect(result.facts.cCommentCount).toBe(2);
    expect(result.errors).toEqual([]);
    expect(result.comments[1]!.loc).toMatchObject({
      start: { line: 2, column: 1 },
      end: { line: 3, column: 14 },
    });
  });

  it('can skip keeping comments while still counting them and tracking lines', () => {
    const source = 'x = 1 // line\n/* block\nover lines */ y = 2 --[[ long\n]] -- lua\nz = 3';
    const result = parseLua(source, { comments: false });
    expect(result.comments).toEqual([]);
    expect(result.facts.cCommentCount).toBe(2);
    expect(result.errors).toEqual([]);
    expect(result.chunk.body.map((s) => s.line)).toEqual([1, 3, 5]);
    expect(parseLua(source).chunk.body.map((s) => s.line)).toEqual([1, 3, 5]);
  });

  it('still divides with a single slash', () => {
    expect(kinds(tokenize('a / b'))).toEqual(['Name:a', 'Punct:/', 'Name:b']);
  });
});

describe('positions and byte input', () => {
  it('gives 1-based lines and columns and byte offsets, for LF, CRLF and CR', () => {
    for (const nl of ['\n', '\r\n', '\r']) {
      const source = `local a${nl}  b = 1${nl}${nl}c`;
      const tokens = tokenize(source);
      expect(tokens[2]).toMatchObject({
        value: 'b',
        line: 2,
        column: 3,
        offset: 7 + nl.length + 2,
      });
      expect(tokens.at(-1)).toMatchObject({
        value: 'c',
        line: 4,
        column: 1,
        offset: source.length - 1,
      });
      expect(parseLua(source).lines).toBe(4);
    }
  });

  it('ends line comments at the next LF or CR, whichever comes first', () => {
    // CRs before, between and after the comments: the lexer keeps its last CR search.
    const source = '-- a\r\nx -- b\ny // c\rz --[==x\n\rw -- d\n-- e\r\nv -- end';
    const r = parseLua(source, { comments: true });
    expect(r.comments.map((c) => [c.value, c.loc.start.line, c.loc.end.offset])).toEqual([
      [' a', 1, 4],
      [' b', 2, 12],
      [' c', 3, 19],
      ['[==x', 4, 28],
      [' d', 6, 36],
      [' e', 7, 41],
      [' end', 8, source.length],
    ]);
    expect(tokenize(source).map((t) => [t.value, t.line])).toEqual([
      ['x', 2],
      ['y', 3],
      ['z', 4],
      ['w', 6],
      ['v', 8],
    ]);
  });

  it('reads plain strings and strings with escapes or line breaks side by side', () => {
    const source = `a = 'x' .. "y\\n" .. 'z\nb = "p" .. "q'r" .. 'un\r\nc = "" .. '\\'' .. "s"`;
    const tokens = tokenize(source).filter((t) => t.kind === 'String' || t.kind === 'Invalid');
    expect(tokens.map((t) => [t.value, t.line, t.end, t.escaped])).toEqual([
      ['x', 1, 7, false],
      ['y\n', 1, 16, false],
      ['z', 1, 22, false],
      ['p', 2, 30, false],
      ["q'r", 2, 39, false],
      ['un', 2, 46, false],
      ['', 3, 54, false],
      ["'", 3, 62, false],
      ['s', 3, 69, false],
    ]);
  });

  it('gives token ends as exclusive offsets', () => {
    const [t] = tokenize('  "ab"');
    expect(t).toMatchObject({ offset: 2, end: 6, endLine: 1 });
  });

  it('skips a UTF-8 BOM and keeps byte offsets', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x78, 0x3d, 0x31]);
    const result = parseLua(bytes);
    expect(result.facts.hasBom).toBe(true);
    expect(result.errors).toEqual([]);
    expect(tokenize(bytes)[0]).toMatchObject({ value: 'x', offset: 3, column: 1 });
  });

  it('skips a shebang line', () => {
    const result = parseLua('#!/usr/bin/lua\nprint(1)');
    expect(result.errors).toEqual([]);
    expect(result.chunk.body[0]!.line).toBe(2);
  });

  it('treats a JS string as Unicode text encoded to UTF-8', () => {
    const [t] = tokenize('"é"');
    expect(t!.value).toBe('\xc3\xa9');
    expect(t!.end).toBe(4);
  });

  it('detects invalid UTF-8 and counts invisible and bidi characters', () => {
    expect(parseLua('x = "é"').facts.invalidUtf8).toBe(false);
    expect(parseLua(new Uint8Array([0x78, 0x3d, 0x22, 0xe9, 0x22])).facts.invalidUtf8).toBe(true);
    expect(parseLua(new Uint8Array([0x78, 0x3d, 0x22, 0xc0, 0xaf, 0x22])).facts.invalidUtf8).toBe(
      true,
    );
    const hidden = 'local a\u200b = "\u202e\u2066x\u2069" -- \u2060\ufeff';
    const facts = parseLua(hidden).facts;
    expect(facts.invisibleCharCount).toBe(6);
    expect(facts.invalidUtf8).toBe(false);
    expect(parseLua('x = "\u200a\u2010"').facts.invisibleCharCount).toBe(0);
  });

  it('measures the longest line in bytes', () => {
    expect(parseLua('a = 1\nbbbbbbbbbb = 2\nc=3').facts.longestLineLength).toBe(14);
    expect(parseLua('x = [[\n' + 'y'.repeat(50) + '\n]]').facts.longestLineLength).toBe(50);
  });

  it('caps the token list of tokenize', () => {
    expect(tokenize('a '.repeat(100), { maxTokens: 10 })).toHaveLength(10);
    expect(tokenize('a '.repeat(100))).toHaveLength(100);
  });

  it('turns stray bytes into Invalid tokens without stopping', () => {
    const tokens = tokenize(new Uint8Array([0x61, 0x00, 0x01, 0x24, 0x62, 0x7e, 0x60]));
    expect(tokens.map((t) => t.kind)).toEqual(['Name', 'Invalid', 'Name', 'Invalid']);
  });
});

describe('bytes and text', () => {
  // The lexer reads the caller's bytes when it has them (Lexer.bytes) and a copy of the text
  // otherwise: both must read the same tokens, errors and positions, to the last byte.
  const sources = [
    'local s = "a\\x41\\65\\u{48}\\z  \n b" .. [==[\nx]==] -- c\n/* d */ x = 0x1p4 != !y',
    'x = "unfinished',
    'x = [[ unfinished',
    'x = 1 --[[ unfinished',
    'x = 1 /* unfinished',
    'f(a, b)\r\n\r\ny = 12ULL\rz',
    'name',
    'x = "\\',
    '1.5e',
    '\x00\x01 $ ? @ ` \x7f a\x00',
    '\xef\xbb\xbfprint("\xff\xfe")',
  ];

  /** Every token and error of `text`, read from `bytes` if given. */
  function lexAll(text: string, bytes?: Uint8Array): unknown[] {
    const diagnostics = new Diagnostics();
    const lexer = new Lexer(text, diagnostics, 0, true, bytes);
    const tokens: unknown[] = [];
    for (;;) {
      const t = lexer.next();
      tokens.push({ ...t });
      if (t.kind === 'EOF') break;
    }
    return [tokens, diagnostics.errors, lexer.line, lexer.longestLineLength, lexer.comments];
  }

  it('gives the same tokens from bytes as from the text', () => {
    for (const s of sources) {
      const bytes = new Uint8Array(Buffer.from(s, 'latin1'));
      expect(lexAll(s, bytes)).toEqual(lexAll(s));
    }
  });

  it('gives the same trees and errors from bytes as from the text', () => {
    for (const s of sources) {
      const bytes = new Uint8Array(Buffer.from(s, 'latin1'));
      const text = Buffer.from(bytes).toString('latin1');
      const fromBytes = parseLua(bytes);
      const fromText = parseLua(text, {
        decoded: { text, encoding: { invisibleCharCount: 0, invalidUtf8: false } },
      });
      expect(JSON.stringify([fromBytes.chunk, fromBytes.errors])).toBe(
        JSON.stringify([fromText.chunk, fromText.errors]),
      );
    }
  });
});
