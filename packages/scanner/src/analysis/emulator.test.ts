// Values the emulator makes again at each visit of a node (literals, API names), in loops.
import { describe, expect, it } from 'vitest';
import { parseLua } from '../lua/index.js';
import { Emulator, type FileContext } from './emulator.js';
import type { AddonAnalysis } from './types.js';

function run(code: string) {
  const out: Pick<
    AddonAnalysis,
    'calls' | 'indexes' | 'overrides' | 'decodedStrings' | 'payloads'
  > = { calls: [], indexes: [], overrides: [], decodedStrings: [], payloads: [] };
  const emulator = new Emulator(out, 3, new Set());
  const fc: FileContext = {
    path: 'lua/autorun/server/sv_test.lua',
    realm: 'server',
    depth: 0,
    steps: 0,
    budget: 100_000,
    exhausted: false,
    shallow: false,
  };
  emulator.runChunk(parseLua(code).chunk.body, fc);
  return { emulator, out, fc };
}

describe('values made at each visit', () => {
  it('gives a new value wherever an API name or member may be kept', () => {
    // The same nodes are read as callees and as bases, then kept, at each iteration: a value
    // kept in a table must not be one a later visit hands out again (locals compare by identity).
    const { emulator } = run(
      [
        'local kept = {}',
        'for i = 1, 3 do',
        '  net.Start("x")',
        '  print(i)',
        '  kept[#kept + 1] = (net.Start)',
        '  kept[#kept + 1] = (print)',
        'end',
        'a, b = (kept[1]), (kept[3])',
        'c, d = (kept[2]), (kept[4])',
      ].join('\n'),
    );
    const g = (n: string) => emulator.globals.getName(n);
    expect(g('a')).toMatchObject({ k: 'api', name: 'net.Start' });
    expect(g('c')).toMatchObject({ k: 'api', name: 'print' });
    expect(g('a')).not.toBe(g('b'));
    expect(g('c')).not.toBe(g('d'));
  });

  it('reads literals, callees and bases again at each iteration', () => {
    const { out } = run(
      [
        'for i = 1, 2 do',
        '  RunConsoleCommand("say", "x")',
        '  file.Write("y" .. i, "z")',
        '  local rs = _G["Run" .. "String"]',
        '  rs(net.ReadString())',
        'end',
        'mylib.helper(1)',
      ].join('\n'),
    );
    const apis = out.calls.map((c) => c.api);
    expect(apis.filter((a) => a === 'RunConsoleCommand')).toHaveLength(1);
    expect(apis.filter((a) => a === 'file.Write')).toHaveLength(2);
    expect(apis).toContain('RunString');
    expect(out.indexes.some((e) => e.base === '_G' && e.resolved === 'RunString')).toBe(true);
  });

  it('gives free globals and literals the same answers at every visit', () => {
    const { emulator } = run(
      [
        'local n, s = 0, ""',
        'for i = 1, 3 do',
        '  n = n + 1000',
        '  s = s .. "ab"',
        '  missing_helper(i)',
        'end',
        'f = (missing_helper)',
        'g = (print)',
        'N, S = n, s',
      ].join('\n'),
    );
    const g = (name: string) => emulator.globals.getName(name);
    expect(g('f')).toEqual({ k: 'api', name: 'missing_helper', via: 'direct', free: true });
    expect(g('g')).toEqual({ k: 'api', name: 'print', via: 'direct' });
    expect(g('N')).toEqual({ k: 'num', v: 3000 });
    expect(g('S')).toMatchObject({ k: 'str', v: 'ababab' });
  });
});

describe('metatables', () => {
  it('reads a missing key where __index points: down a chain of classes, then _G', () => {
    const { out } = run(
      [
        'local Base = {}',
        'Base.__index = Base',
        'function Base:apply(s) RunString(s) end',
        'local Job = setmetatable({}, Base)',
        'Job.__index = Job',
        'local job = setmetatable({}, Job)',
        'job:apply("print(1)")',
        'local G = setmetatable({}, { __index = _G })',
        'G.RunString("print(2)")',
        'G["Run" .. "String"]("print(3)")',
        'local loop = {}',
        'loop.__index = loop',
        'setmetatable(loop, loop)',
        'loop.missing("print(4)")',
      ].join('\n'),
    );
    const run3 = out.calls.filter((c) => c.api === 'RunString').map((c) => c.args[0]);
    expect(run3).toEqual([
      { k: 'str', v: 'print(1)' },
      { k: 'str', v: 'print(2)' },
      { k: 'str', v: 'print(3)' },
    ]);
  });
});

describe('coroutines', () => {
  it('gives the n-th yield at the n-th resume, then what the body returned, then nothing', () => {
    const { emulator } = run(
      [
        'local gen = coroutine.wrap(function() coroutine.yield("a") coroutine.yield("b", 2) return "end" end)',
        'r1 = gen()',
        'r2, n2 = gen()',
        'r3 = gen()',
        'r4 = gen()',
        'local co = coroutine.create(function(x) coroutine.yield(x) end)',
        'ok, v = coroutine.resume(co, "sent")',
      ].join('\n'),
    );
    const g = (n: string) => emulator.globals.getName(n);
    expect(g('r1')).toMatchObject({ k: 'str', v: 'a' });
    expect(g('r2')).toMatchObject({ k: 'str', v: 'b' });
    expect(g('n2')).toMatchObject({ k: 'num', v: 2 });
    expect(g('r3')).toMatchObject({ k: 'str', v: 'end' });
    expect(g('r4')).toMatchObject({ k: 'nil' });
    expect(g('ok')).toMatchObject({ k: 'bool', v: true });
    expect(g('v')).toMatchObject({ k: 'str', v: 'sent' });
  });

  it('stops the loops of a body that yields at every turn of a long loop', () => {
    // Without the cap the loop runs to half the file's budget (50 000 steps here).
    const { emulator, fc } = run(
      [
        'local co = coroutine.wrap(function()',
        '  for i = 1, 20000 do local a = i * 2 local b = a + 1 coroutine.yield(i) end',
        'end)',
        'first = co()',
        'second = co()',
      ].join('\n'),
    );
    expect(emulator.globals.getName('first')).toMatchObject({ k: 'num', v: 1 });
    expect(emulator.globals.getName('second')).toMatchObject({ k: 'num', v: 2 });
    expect(fc.steps).toBeLessThan(5000);
  });
});

describe('tables filled under keys not known', () => {
  it('has an unknown length, and its entries carry what was stored', () => {
    const { out } = run(
      [
        'local parts = {}',
        'for i = 1, net.ReadUInt(8) do parts[i] = net.ReadString() end',
        'RunString(#parts == 0 and "empty" or "some")',
        'RunString(parts[1])',
      ].join('\n'),
    );
    const args = out.calls.filter((c) => c.api === 'RunString').map((c) => c.args[0]);
    // Not "empty" for certain: the loop may have run.
    expect(args[0]).not.toEqual({ k: 'str', v: 'empty' });
    expect(args[1]).toMatchObject({ k: 'unk', taint: [{ kind: 'net' }] });
  });
});

describe('returns on the way', () => {
  it('answers what a search found rather than its closing nil', () => {
    const { out } = run(
      [
        'local function find(names, wanted)',
        ' for _, n in ipairs(names) do',
        '  if string.lower(n) == wanted then return _G[n] end',
        ' end',
        ' return nil',
        'end',
        'local f = find({ "RunString" }, net.ReadString())',
        'if f ~= nil then f(net.ReadString()) end',
      ].join('\n'),
    );
    expect(out.calls.some((c) => c.api === 'RunString')).toBe(true);
  });
});

describe('table.sort', () => {
  it('puts known entries in the order of `<` or of the comparator, and leaves unknown orders', () => {
    const { out } = run(
      [
        'local a = { "c", "a", "b" } table.sort(a) RunString(table.concat(a))',
        'local b = { 3, 1, 2 } table.sort(b, function(x, y) return x > y end)',
        'RunString(table.concat(b, ","))',
        'local c = { "y", "x" } table.sort(c, function(p, q) return net.ReadBool() end)',
        'RunString(table.concat(c))',
      ].join('\n'),
    );
    const texts = out.calls.filter((c) => c.api === 'RunString').map((c) => c.args[0]);
    expect(texts).toMatchObject([
      { k: 'str', v: 'abc' },
      { k: 'str', v: '3,2,1' },
      { k: 'str', v: 'yx' },
    ]);
  });
});
