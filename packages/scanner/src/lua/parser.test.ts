// The GLua parser: every statement and expression form, precedence, GLua operators, node
// positions, error recovery, hostile input (deep nesting, garbage, huge one-liners) and the
// labelled sample addons, which must all parse cleanly.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WATCH_FIELD, WATCH_LIBRARY, WATCH_SINK } from './ast.js';
import { decodeSource, scanEncoding } from './source.js';
import {
  forEachToken,
  parseLua,
  tokenize,
  walk,
  type Expression,
  type Node,
  type ParseResult,
  type Statement,
} from './index.js';

function clean(source: string): ParseResult {
  const result = parseLua(source);
  expect(result.errors, source).toEqual([]);
  return result;
}

function firstStatement(source: string): Statement {
  return clean(source).chunk.body[0]!;
}

/** The expression of `x = <expr>`. */
function expr(source: string): Expression {
  const s = firstStatement(`x = ${source}`);
  if (s.type !== 'AssignmentStatement') throw new Error(s.type);
  return s.init[0]!;
}

/** A compact Lisp-like rendering of an expression, to check tree shapes at a glance. */
function show(e: Expression | Node): string {
  switch (e.type) {
    case 'Identifier':
      return e.name;
    case 'NumericLiteral':
      return e.raw;
    case 'StringLiteral':
      return JSON.stringify(e.value);
    case 'BinaryExpression':
    case 'LogicalExpression':
      return `(${e.operator} ${show(e.left)} ${show(e.right)})`;
    case 'UnaryExpression':
      return `(${e.operator} ${show(e.argument)})`;
    case 'ParenthesizedExpression':
      return `[${show(e.expression)}]`;
    case 'MemberExpression':
      return `${show(e.base)}${e.indexer}${e.identifier.name}`;
    case 'IndexExpression':
      return `${show(e.base)}[${show(e.index)}]`;
    case 'CallExpression':
      return `${show(e.base)}(${e.arguments.map(show).join(', ')})`;
    case 'StringCallExpression':
      return `${show(e.base)}<str ${show(e.argument)}>`;
    case 'TableCallExpression':
      return `${show(e.base)}<table ${e.arguments.fields.length}>`;
    default:
      return e.type;
  }
}

describe('statements', () => {
  it('parses local declarations and local functions', () => {
    const s = firstStatement('local a, b = 1, "x"');
    expect(s).toMatchObject({ type: 'LocalStatement', variables: [{ name: 'a' }, { name: 'b' }] });
    expect(firstStatement('local c')).toMatchObject({ type: 'LocalStatement', init: [] });
    expect(firstStatement('local function f(a, ...) return a end')).toMatchObject({
      type: 'FunctionDeclaration',
      isLocal: true,
      identifier: { type: 'Identifier', name: 'f' },
      parameters: [{ type: 'Identifier', name: 'a' }, { type: 'VarargLiteral' }],
      body: [{ type: 'ReturnStatement' }],
    });
  });

  it('parses function statements with dotted and method names', () => {
    const s = firstStatement('function a.b.c:m(x) end');
    expect(s.type).toBe('FunctionDeclaration');
    if (s.type !== 'FunctionDeclaration') return;
    expect(s.isLocal).toBe(false);
    expect(show(s.identifier!)).toBe('a.b.c:m');
    expect(s.parameters).toHaveLength(1);
  });

  it('parses assignments with several targets', () => {
    const s = firstStatement('a, b.c, d[1] = 1, 2, 3');
    expect(s.type).toBe('AssignmentStatement');
    if (s.type !== 'AssignmentStatement') return;
    expect(s.variables.map(show)).toEqual(['a', 'b.c', 'd[1]']);
    expect(s.init).toHaveLength(3);
  });

  it('parses call statements, method calls and call sugar', () => {
    const body = clean('f(1) obj:m(2) net.Receive"x" setmetatable{} a.b:c"s" f()()').chunk.body;
    expect(body.map((s) => (s.type === 'CallStatement' ? show(s.expression) : s.type))).toEqual([
      'f(1)',
      'obj:m(2)',
      'net.Receive<str "x">',
      'setmetatable<table 0>',
      'a.b:c<str "s">',
      'f()()',
    ]);
  });

  it('parses every control structure', () => {
    const body = clean(`
      if a then x() elseif b then y() else z() end
      while i < 10 do i = i + 1 end
      do local t = 1 end
      repeat n = n - 1 until n == 0
      for i = 1, 10, 2 do end
      for i = 10, 1 do end
      for k, v in pairs(t) do end
      for _ = 1, 3 do break end
      for _ = 1, 3 do if a then continue end end
      goto skip
      ::skip::
      return 1, 2
    `).chunk.body;
    expect(body.map((s) => s.type)).toEqual([
      'IfStatement',
      'WhileStatement',
      'DoStatement',
      'RepeatStatement',
      'ForNumericStatement',
      'ForNumericStatement',
      'ForGenericStatement',
      'ForNumericStatement',
      'ForNumericStatement',
      'GotoStatement',
      'LabelStatement',
      'ReturnStatement',
    ]);
    const ifs = body[0]!;
    if (ifs.type === 'IfStatement') {
      expect(ifs.clauses.map((c) => c.type)).toEqual(['IfClause', 'ElseifClause', 'ElseClause']);
      expect(ifs.clauses[2]!.condition).toBeNull();
    }
    expect(body[4]).toMatchObject({ step: { value: 2 } });
    expect(body[5]).toMatchObject({ step: null });
    expect(body[6]).toMatchObject({ variables: [{ name: 'k' }, { name: 'v' }] });
    expect(body[8]).toMatchObject({
      body: [{ clauses: [{ body: [{ type: 'ContinueStatement' }] }] }],
    });
    expect(body[9]).toMatchObject({ label: { name: 'skip' } });
    expect(body[11]).toMatchObject({ arguments: [{ value: 1 }, { value: 2 }] });
  });

  it('accepts empty statements, bare return and return with a semicolon', () => {
    expect(clean(';;; local x = 1; ; return;').chunk.body.map((s) => s.type)).toEqual([
      'LocalStatement',
      'ReturnStatement',
    ]);
    expect(firstStatement('return')).toMatchObject({ type: 'ReturnStatement', arguments: [] });
  });
});

describe('expressions', () => {
  it('parses every literal', () => {
    expect(expr('nil')).toMatchObject({ type: 'NilLiteral' });
    expect(expr('true')).toMatchObject({ type: 'BooleanLiteral', value: true });
    expect(expr('false')).toMatchObject({ type: 'BooleanLiteral', value: false });
    expect(expr('0x10')).toMatchObject({ type: 'NumericLiteral', value: 16, raw: '0x10' });
    // `x = ` comes first: the literal as written spans offsets 4 to endOffset.
    expect(expr('"\\x41"')).toMatchObject({
      type: 'StringLiteral',
      value: 'A',
      offset: 4,
      endOffset: 4 + '"\\x41"'.length,
      escaped: true,
    });
    expect(expr('[[x]]')).toMatchObject({
      type: 'StringLiteral',
      value: 'x',
      offset: 4,
      endOffset: 4 + '[[x]]'.length,
      escaped: false,
    });
    expect(firstStatement('function f(...) return ... end')).toMatchObject({
      body: [{ arguments: [{ type: 'VarargLiteral' }] }],
    });
  });

  it('follows Lua operator precedence', () => {
    expect(show(expr('1 + 2 * 3'))).toBe('(+ 1 (* 2 3))');
    expect(show(expr('1 * 2 + 3'))).toBe('(+ (* 1 2) 3)');
    expect(show(expr('1 - 2 - 3'))).toBe('(- (- 1 2) 3)');
    expect(show(expr('a or b and c'))).toBe('(or a (and b c))');
    expect(show(expr('a < b == c'))).toBe('(== (< a b) c)');
    expect(show(expr('not a == b'))).toBe('(== (not a) b)');
    expect(show(expr('-x ^ 2'))).toBe('(- (^ x 2))');
    expect(show(expr('2 ^ -3 ^ 2'))).toBe('(^ 2 (- (^ 3 2)))');
    expect(show(expr('#t + 1'))).toBe('(+ (# t) 1)');
    expect(show(expr('a .. b + c .. d'))).toBe('(.. a (.. (+ b c) d))');
    expect(show(expr('a .. b == c'))).toBe('(== (.. a b) c)');
    expect(show(expr('1 + 2 % 3 / 4'))).toBe('(+ 1 (/ (% 2 3) 4))');
  });

  it('makes .. and ^ right-associative', () => {
    expect(show(expr('"a" .. "b" .. "c"'))).toBe('(.. "a" (.. "b" "c"))');
    expect(show(expr('2 ^ 3 ^ 2'))).toBe('(^ 2 (^ 3 2))');
  });

  it('keeps parentheses and suffix chains', () => {
    expect(show(expr('(f())'))).toBe('[f()]');
    expect(show(expr('("x"):rep(3)'))).toBe('["x"]:rep(3)');
    expect(show(expr('a.b[c].d:e(1)(2)'))).toBe('a.b[c].d:e(1)(2)');
    expect(show(expr('_G["Run" .. "String"]'))).toBe('_G[(.. "Run" "String")]');
  });

  it('parses table constructors with every field kind and separator', () => {
    const t = expr('{ 1, x = 2; ["k"] = 3, f(), }');
    expect(t.type).toBe('TableConstructorExpression');
    if (t.type !== 'TableConstructorExpression') return;
    expect(t.fields.map((f) => f.type)).toEqual([
      'TableValue',
      'TableKeyString',
      'TableKey',
      'TableValue',
    ]);
    expect(expr('{}')).toMatchObject({ fields: [] });
    expect(expr('{ x == 1 }')).toMatchObject({
      fields: [{ type: 'TableValue', value: { operator: '==' } }],
    });
  });

  it('parses anonymous functions', () => {
    expect(expr('function(a, b) return a + b end')).toMatchObject({
      type: 'FunctionDeclaration',
      identifier: null,
      isLocal: false,
      parameters: [{ name: 'a' }, { name: 'b' }],
    });
  });

  it('normalises GLua operators to Lua spelling and marks them', () => {
    const e = expr('a != b && !c || d');
    expect(show(e)).toBe('(or (and (~= a b) (not c)) d)');
    expect(e).toMatchObject({
      glua: true,
      left: { glua: true, left: { glua: true }, right: { glua: true } },
    });
    const lua = expr('a ~= b and not c or d');
    expect(JSON.stringify(lua)).not.toContain('glua');
  });
});

describe('positions', () => {
  it('gives every node a 1-based start line and an exclusive end with byte offsets', () => {
    const source = 'local x = 1\nif x then\n  print("hi", x + 2)\nend';
    const result = clean(source);
    const [local, ifs] = result.chunk.body;
    expect(local).toMatchObject({ line: 1, offset: 0, endOffset: 11 });
    expect(ifs).toMatchObject({ line: 2, offset: 12, endOffset: source.length });
    const seen: string[] = [];
    walk(result.chunk, (node) => {
      if (node.type === 'BinaryExpression' || node.type === 'StringLiteral') {
        seen.push(`${node.type}@${node.line}-${source.slice(node.offset, node.endOffset)}`);
      }
    });
    expect(seen).toEqual(['StringLiteral@3-"hi"', 'BinaryExpression@3-x + 2']);
  });

  it('walks every node once, parents first', () => {
    const result = clean('local t = { a = f(1) } if t then return t.a end');
    const types: string[] = [];
    const parents = new Map<Node, Node | null>();
    walk(result.chunk, (node, parent) => {
      expect(parents.has(node)).toBe(false);
      types.push(node.type);
      parents.set(node, parent);
    });
    expect(types).toEqual([
      'Chunk',
      'LocalStatement',
      'Identifier',
      'TableConstructorExpression',
      'TableKeyString',
      'Identifier',
      'CallExpression',
      'Identifier',
      'NumericLiteral',
      'IfStatement',
      'IfClause',
      'Identifier',
      'ReturnStatement',
      'MemberExpression',
      'Identifier',
      'Identifier',
    ]);
    for (const [node, parent] of parents) if (node.type !== 'Chunk') expect(parent).not.toBeNull();
    let visited = 0;
    walk(result.chunk, (node) => {
      visited++;
      return node.type !== 'LocalStatement';
    });
    expect(visited).toBe(types.length - 7);
  });
});

describe('error recovery', () => {
  it('reports an error and keeps parsing the next statements', () => {
    const result = parseLua('local x = = 1\nprint("after")\nfunction f() return 1 end');
    expect(result.errors.length).toBeGreaterThan(0);
    expect(result.errors[0]).toMatchObject({ line: 1, column: 11 });
    const types = result.chunk.body.map((s) => s.type);
    expect(types).toContain('CallStatement');
    expect(types).toContain('FunctionDeclaration');
  });

  it('keeps the body of a function whose end is missing', () => {
    const result = parseLua('function f()\n  RunString(x)\n');
    expect(result.errors[0]!.message).toContain("'end' expected");
    expect(result.chunk.body[0]).toMatchObject({
      type: 'FunctionDeclaration',
      body: [{ type: 'CallStatement' }],
    });
  });

  it('leaves ErrorStatement placeholders for skipped code', () => {
    const result = parseLua('x = 1\n) ) )\ny = 2\nend\nz = 3');
    const types = result.chunk.body.map((s) => s.type);
    expect(types.filter((t) => t === 'AssignmentStatement')).toHaveLength(3);
    expect(types).toContain('ErrorStatement');
    expect(result.errors.length).toBeGreaterThanOrEqual(2);
  });

  it('uses ErrorExpression where an expression is missing', () => {
    const result = parseLua('if then foo() end');
    expect(result.errors).toHaveLength(1);
    // Empty, right after the last consumed token (`if`), inside its parent.
    expect(result.chunk.body[0]).toMatchObject({
      clauses: [{ condition: { line: 1, offset: 2, endOffset: 2 } }],
    });
    expect(result.chunk.body[0]).toMatchObject({
      type: 'IfStatement',
      clauses: [{ condition: { type: 'ErrorExpression' }, body: [{ type: 'CallStatement' }] }],
    });
  });

  it('rejects a non-call expression statement and a bad assignment target', () => {
    expect(parseLua('x').errors.length).toBe(1);
    expect(parseLua('f() = 1').errors.length).toBeGreaterThan(0);
    expect(parseLua('a:b = 1').errors.length).toBeGreaterThan(0);
  });

  it('reports the Expression 2 preprocessor syntax as another dialect', () => {
    const result = parseLua(
      'e2function number operator+(number lhs, number rhs)\n  return lhs + rhs\nend',
    );
    expect(result.errors.length).toBeGreaterThan(0);
    expect(tokenize('e2function number').length).toBe(2);
  });
});

describe('hostile input', () => {
  it('survives 10 000 nested parentheses with a depth error', () => {
    const n = 10_000;
    const result = parseLua(`x = ${'('.repeat(n)}1${')'.repeat(n)}\ny = 2`);
    expect(result.errors.some((e) => e.message.includes('nesting'))).toBe(true);
    expect(result.errors).toHaveLength(1);
    expect(result.chunk.body.map((s) => s.type)).toEqual([
      'AssignmentStatement',
      'AssignmentStatement',
    ]);
  });

  it('survives deep tables, functions, blocks and unary chains', () => {
    const n = 20_000;
    const sources = [
      `x = ${'{'.repeat(n)}${'}'.repeat(n)}`,
      `x = ${'function() return '.repeat(n)}1${' end'.repeat(n)}`,
      `${'do '.repeat(n)}${'end '.repeat(n)}`,
      `${'if a then '.repeat(n)}${'end '.repeat(n)}`,
      `x = ${'not '.repeat(n)}y`,
      `x = ${'-'.repeat(n)}y`,
      `x = ${'a['.repeat(n)}1${']'.repeat(n)}`,
      `f${'('.repeat(n)}`,
    ];
    for (const source of sources) {
      const result = parseLua(source);
      expect(result.errors.length, source.slice(0, 30)).toBeGreaterThan(0);
      expect(result.errors[0]!.message).toMatch(/nesting|expected/);
    }
  });

  it('honours a custom depth limit', () => {
    expect(parseLua('x = ((((1))))', { maxDepth: 3 }).errors.length).toBe(1);
    expect(parseLua('x = ((((1))))', { maxDepth: 10 }).errors.length).toBe(0);
    // A limit above what the JS stack can take is clamped rather than obeyed.
    const deep = parseLua(`x = ${'f('.repeat(10_000)}${')'.repeat(10_000)} y = 1`, {
      maxDepth: 1_000_000,
    });
    expect(deep.errors[0]!.message).toContain('nesting deeper than 1000');
    expect(deep.chunk.body).toHaveLength(2);
  });

  it('does not recurse on long concatenation chains', () => {
    const result = parseLua(
      `x = ${Array.from({ length: 50_000 }, (_, i) => `"${i}"`).join(' .. ')}`,
    );
    expect(result.errors).toEqual([]);
  });

  it('never throws on random binary garbage', () => {
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
    for (let round = 0; round < 20; round++) {
      const bytes = new Uint8Array(20_000).map(() => random());
      const result = parseLua(bytes);
      expect(result.facts.invalidUtf8).toBe(true);
      expect(result.errors.length).toBeGreaterThan(0);
      expect(tokenize(bytes).length).toBeGreaterThan(0);
    }
  });

  it('never throws on truncated prefixes of real code', () => {
    const source =
      'local t = { a = "x\\65", [1] = function(...) return #... end }\nif t then t.a:rep(2) end --[[ c ]]';
    for (let i = 0; i <= source.length; i++) {
      expect(() => parseLua(source.slice(0, i))).not.toThrow();
    }
  });

  it('caps the error list on garbage and reports the total', () => {
    const result = parseLua('x\n'.repeat(2000));
    expect(result.errors).toHaveLength(500);
    expect(result.errorCount).toBeGreaterThan(1000);
  });

  it('stops building the tree after the token budget, but still lexes the whole file', () => {
    const source = 'a = 1\n'.repeat(1000) + 'b = "\\x41" -- end';
    const result = parseLua(source, { maxTokens: 300 });
    expect(result.truncated).toBe(true);
    expect(result.chunk.body.length).toBe(100);
    expect(result.errors.at(-1)!.message).toContain('too large');
    expect(result.lines).toBe(1001);
    expect(result.comments).toHaveLength(1);
    expect(parseLua(source).truncated).toBeUndefined();
  });

  it('streams tokens and can stop early', () => {
    const seen: string[] = [];
    forEachToken('a b c d', (t) => {
      seen.push(t.value);
      return seen.length < 2;
    });
    expect(seen).toEqual(['a', 'b']);
  });

  it('lexes and parses a 5 MB one-line payload quickly', () => {
    // The shape of a real obfuscated loader: code, a big numeric table, a big escaped string.
    const code =
      'local a=tbl["k"]..string.char(72,105)..("\\x41\\65"):rep(2);if a!=nil&&b then f(a,{1,2,x=3}) end ';
    const codeUnits = Math.ceil(500_000 / code.length);
    const numbers = '72,101,108,108,111,'.repeat(Math.ceil(600_000 / 19));
    const escapes = '\\x52\\117\\110\\z '.repeat(Math.ceil(3_900_000 / 15));
    const source = `${code.repeat(codeUnits)}local t={${numbers}0} RunString("${escapes}")`;
    const started = performance.now();
    const result = parseLua(source);
    const elapsed = performance.now() - started;
    expect(result.errors).toEqual([]);
    expect(result.truncated).toBeUndefined();
    expect(result.lines).toBe(1);
    expect(result.facts.longestLineLength).toBe(source.length);
    expect(result.chunk.body.length).toBe(2 * codeUnits + 2);
    const call = result.chunk.body.at(-1)!;
    expect(
      call.type === 'CallStatement' &&
        call.expression.type === 'CallExpression' &&
        call.expression.arguments[0],
    ).toMatchObject({
      type: 'StringLiteral',
      escaped: true,
      value: 'Run'.repeat(Math.ceil(3_900_000 / 15)),
    });
    expect(elapsed).toBeLessThan(20_000);
  });
});

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const samplesRoot = join(repoRoot, '..', 'shared', 'samples');

function luaFilesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...luaFilesUnder(path));
    else if (name.endsWith('.lua')) found.push(path);
  }
  return found;
}

describe.runIf(existsSync(samplesRoot))('sample addons', () => {
  it('parses every .lua file of the labelled samples without errors', () => {
    const files = luaFilesUnder(samplesRoot);
    expect(files.length).toBeGreaterThan(50);
    const failures = files
      .map((file) => ({ file, errors: parseLua(readFileSync(file)).errors }))
      .filter((r) => r.errors.length > 0)
      .map(
        (r) => `${r.file}: ${r.errors[0]!.message} at ${r.errors[0]!.line}:${r.errors[0]!.column}`,
      );
    expect(failures).toEqual([]);
  });

  it('gives every node of the samples a position consistent with its offsets and parent', () => {
    const problems: string[] = [];
    for (const file of luaFilesUnder(samplesRoot)) {
      const text = readFileSync(file).toString('latin1');
      const lineStarts = [0];
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
        if (c === 10 || c === 13) lineStarts.push(i + 1);
      }
      // The line holds the offset: it starts at or before it, and the next line after it.
      const consistent = (line: number, offset: number) =>
        lineStarts[line - 1]! <= offset &&
        (line === lineStarts.length || lineStarts[line]! > offset);
      walk(parseLua(text).chunk, (node, parent) => {
        const { line, offset, endOffset } = node;
        if (!consistent(line, offset) || offset > endOffset) problems.push(`${file} ${node.type}`);
        if (parent && (offset < parent.offset || endOffset > parent.endOffset))
          problems.push(`${file} ${node.type} outside ${parent.type}`);
        if (node.type === 'Identifier' && text.slice(offset, endOffset) !== node.name)
          problems.push(`${file} ${node.name}`);
      });
    }
    expect(problems).toEqual([]);
  });
});

/** A parse as JSON, with both token modes compared (see ParseOptions.recycleTokens). */
function treesWithAndWithoutRecycling(source: string): [string, string] {
  const [recycled, fresh] = [true, false].map((recycleTokens) => {
    const r = parseLua(source, { recycleTokens });
    return JSON.stringify([r.chunk, r.errors]);
  });
  return [recycled!, fresh!];
}

describe('recycled tokens', () => {
  // The lexer reuses its token objects for the parser; a token the parser kept past a few
  // reads without copying it would put another token's position or text in the tree.
  it('give the same trees as fresh tokens, broken and hostile code included', () => {
    const sources = [
      'local a, b = 1, "x" if a then b = a .. b elseif b then do end else return end',
      'for i = 1, 10, 2 do while x do repeat y() until z end end end',
      'for k, v in pairs(t) do goto skip ::skip:: end',
      'local t = { [1] = 2, k = function() return not -#x end, "v"; nested = { a.b:c "s" } }',
      'x = a and b or c .. d .. e ^ f ^ g == h ~= i',
      'function a.b.c:d(...) local function e() end return (f)(g)[h] end',
      'x = ' + '('.repeat(300) + '1' + ')'.repeat(300),
      'if a then '.repeat(230) + 'print(1) ' + 'end '.repeat(230),
      'local = = = end end ) ) } :: goto goto ::x:: '.repeat(20),
      'x = {' +
        Array.from({ length: 300 }, (_, i) => `k${i} = ${i}, [${i}] = f(${i})`).join(',') +
        '}',
    ];
    for (const source of sources) {
      const [recycled, fresh] = treesWithAndWithoutRecycling(source);
      expect(recycled).toBe(fresh);
    }
  });
});

describe.runIf(existsSync(samplesRoot))('recycled tokens on the samples', () => {
  it('give the same trees as fresh tokens, for each sample file and cut-up copies of it', () => {
    const junk = ['(', ')', 'end', 'function', '{', '}', ',', '=', 'local', '"', '..', 'then'];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const differing: string[] = [];
    for (const file of luaFilesUnder(samplesRoot)) {
      const text = readFileSync(file).toString('latin1');
      const variants = [text];
      for (let k = 0; k < 3; k++) {
        const at = random(text.length + 1);
        variants.push(
          text.slice(0, at) + ` ${junk[random(junk.length)]} ` + text.slice(at + random(30)),
        );
      }
      for (const variant of variants) {
        const [recycled, fresh] = treesWithAndWithoutRecycling(variant);
        if (recycled !== fresh) differing.push(file);
      }
    }
    expect(differing).toEqual([]);
  });
});

describe('decoded sources', () => {
  it('gives the same tree and facts from a text the caller already decoded', () => {
    const bytes = new TextEncoder().encode(
      '\uFEFFlocal s = "caf\u00e9\u200b" -- note\nif s != "" then print(s) end',
    );
    const text = decodeSource(bytes);
    const plain = parseLua(bytes);
    const reused = parseLua(bytes, { decoded: { text, encoding: scanEncoding(text, 3) } });
    expect(plain.facts.invisibleCharCount).toBe(1);
    expect(reused.chunk).toEqual(plain.chunk);
    expect(reused.facts).toEqual(plain.facts);
    expect(reused.errors).toEqual(plain.errors);
  });
});

describe('function watch', () => {
  // A small watch list: `Sink` is a sink anywhere, `Field` only as a field, `lib` only as a
  // library, and the empty name (`t[""]`) a sink too.
  const watch = {
    names: new Map([
      ['Sink', WATCH_SINK],
      ['Field', WATCH_FIELD],
      ['lib', WATCH_LIBRARY],
      ['', WATCH_SINK],
    ]),
  };

  it('records aliases of sinks only, by the target path', () => {
    const r = parseLua(
      ['local a, b = Sink, print', 'x.y, z = t.Sink, t.print', 'w = t[""]'].join('\n'),
      { watch },
    );
    expect(r.localAliases).toEqual(['a']);
    expect(r.aliases).toEqual(['x.y', 'w']);
  });

  it('records what a sink makes or a computed lookup of one reaches as aliases', () => {
    const r = parseLua(
      [
        'local G = Sink',
        'local f1 = Sink[name]',
        'local f2 = (G)[a .. b]',
        'local f3 = Sink(code)',
        'h.run = G.x[key]',
        'local n1 = t[name]',
        'local n2 = print(code)',
        'local n3 = G["plain"]',
      ].join('\n'),
      { watch },
    );
    // A constant key names the function itself (`G["plain"]` is `plain`, no sink).
    expect(r.localAliases).toEqual(['G', 'f1', 'f2', 'f3']);
    expect(r.aliases).toEqual(['h.run']);
  });

  it('records tables of functions: holding a sink as aliases, else with the functions named', () => {
    const r = parseLua(
      [
        'local calls = { [1] = Sink, [2] = print }',
        'local handlers = { run = exec, ping = Lib.ping, n = 1, f = function() end }',
        'M.cmds = { go }',
        'local data = { 1, "x", { y = 2 } }',
      ].join('\n'),
      { watch },
    );
    expect(r.localAliases).toEqual(['calls']);
    expect(r.localTables).toEqual(['handlers', 'exec', 'handlers', 'Lib.ping']);
    expect(r.tables).toEqual(['M.cmds', 'go']);
  });

  it('marks functions by the names, strings and numbers they use', () => {
    const r = parseLua(
      [
        'function f1() return Sink end',
        'function f2() return x.Field end',
        'function f3() return Field end',
        'function f4() return lib.x end',
        'function f5() return lib end',
        'function f6() return "\\x41" end',
        'function f7() return 76561190000000000 end',
        'function f8() return print, "plain", 42 end',
      ].join('\n'),
      { watch },
    );
    expect(r.functions!.map((f) => [f.name, f.watched, f.sink])).toEqual([
      ['f1', true, true],
      ['f2', true, false],
      ['f3', false, false],
      ['f4', true, false],
      ['f5', false, false],
      ['f6', true, false],
      ['f7', true, false],
      ['f8', false, false],
    ]);
  });

  it('finds local paths only after a top-level local of their root', () => {
    const r = parseLua(
      [
        'function A.f() end',
        'local A = {}',
        'function A.g() end',
        'function A:h() end',
        'function B.i() end',
        'function A() end',
        'if x then local B = {} function B.j() end end',
        'function B.k() end',
      ].join('\n'),
      { watch },
    );
    expect(r.functions!.map((f) => [f.name, f.local ?? false])).toEqual([
      ['A.f', false],
      ['A.g', true],
      ['A:h', true],
      ['B.i', false],
      ['A', false],
      ['B.j', true],
      ['B.k', false],
    ]);
  });
});
