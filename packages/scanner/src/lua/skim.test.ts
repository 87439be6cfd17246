// The skim must agree with the parser: same function extents, same lexical facts, and a
// lazily parsed tree that, once every body is parsed, equals the tree of a full parse.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FUNCTION_WATCH, SKIM_WATCH, skimWatchFor } from '../analysis/relevance.js';
import { loadThreatIntel } from '../intel/index.js';
import type { FunctionDeclaration, Node } from './ast.js';
import { functionBody, parseLua } from './parser.js';
import { mayMention, skimLua, wordHash, wordOffsets } from './skim.js';
import { walk } from './walk.js';
import { SAMPLES_ROOT } from '../sampleFixtures.js';

const samplesRoot = SAMPLES_ROOT;

function luaFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...luaFilesUnder(full));
    else if (name.endsWith('.lua')) out.push(full);
  }
  return out;
}

/** The tree as JSON, every lazy body parsed first (walking reaches into them). */
function fullTree(chunk: Node): string {
  walk(chunk, () => undefined);
  return JSON.stringify(chunk);
}

const SNIPPETS = [
  'local function a() return 1 end\nfunction b.c:d(x, ...) if x then do end end return a() end',
  'hook.Add("Think", "x", function()\r\n  local t = { f = function() end, [[long ]] }\r\n  repeat local y = 1 until y\r\nend)',
  '-- comment with function and end\n--[==[ block\nfunction\n]==]\nlocal s = "end \\" function"\nlocal f = function() return [=[\nend]=] end',
  '// glua comment end\n/* block\n function */\nif a != b && !c || d then local g = function() continue end end',
  'local n = 0x1F + 1e10 + 3.5e-2 + 0x1p4\nlocal function w() while true do break end for i = 1, 2 do end end',
  'net.Receive("x", function(len, ply) RunString(net.ReadString()) end)\nlocal function quiet() print("hi") end',
  // Quoted strings holding the other quote, escaped quotes and line breaks, and `\z`.
  'local s = \'it\\\'s "end"\' .. "a\\\\" .. "b\\\nfunction" .. "\\z\n   end"\nlocal f = function() return \'"\' end',
];

describe('skim', () => {
  it('finds every function with the extent the parser gives it', () => {
    for (const src of SNIPPETS) {
      const skim = skimLua(src, SKIM_WATCH);
      expect(skim.balanced).toBe(true);
      const parsed = parseLua(src);
      const fns: FunctionDeclaration[] = [];
      walk(parsed.chunk, (n) => {
        if (n.type === 'FunctionDeclaration') fns.push(n);
      });
      expect(skim.functions.size).toBe(fns.length);
      // Keyed by the `function` keyword (`local function` nodes start at `local`).
      for (const fn of fns) {
        const keyword = src.indexOf('function', fn.offset);
        expect(skim.functions.get(keyword)?.end).toBe(fn.endOffset);
      }
    }
  });

  it('gives the lexer facts: lines, longest line, GLua operators, C comments', () => {
    for (const src of SNIPPETS) {
      const skim = skimLua(src, SKIM_WATCH);
      const { facts, lines } = parseLua(src);
      expect([
        skim.lines,
        skim.longestLineLength,
        skim.gluaOperatorCount,
        skim.cCommentCount,
      ]).toEqual([lines, facts.longestLineLength, facts.gluaOperatorCount, facts.cCommentCount]);
    }
  });

  it('marks functions worth a tree, and the functions around them', () => {
    const src = [
      'function a() RunString(x) end', // sink name
      'function b() local s = string.char(65) end', // decoder, as a field
      'function c() local char = 1 end', // the same name as a plain variable
      'function d() return "STEAM_0:1:23" end', // literal identity
      'function e() return "\\x41" end', // escape
      'function f() return 76561198000000000 end', // SteamID64 numeral
      'function g() function meta:IsAdmin() return true end end', // redefinition, both judged
      'function h() print("hello") end',
      'function i(ply) return ply:SteamID() end', // an identity alone
      'function j() local s = net.ReadString() end', // a net read alone (queued, passed on)
      'function k(ply) if net.ReadString() == ply:SteamID() then end end', // both
      'function l() file.Write("x.txt", "y") end', // a file action, judged by its callers
    ].join('\n');
    const skim = skimLua(src, SKIM_WATCH);
    const watched = [...skim.functions.entries()]
      .sort((x, y) => x[0] - y[0])
      .map(([, f]) => f.watched);
    expect(watched).toEqual([
      true,
      true,
      false,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      true,
      true,
      true,
    ]);
    expect(skim.watched).toBe(true);
    expect(skimLua('print("hello")\nlocal x = {1, 2}', SKIM_WATCH).watched).toBe(false);
    // On a client, what the net carries is the server's own data: a read alone is not enough.
    const client = skimLua(src, skimWatchFor(loadThreatIntel(), true));
    const onClient = [...client.functions.entries()].sort((x, y) => x[0] - y[0]);
    expect(onClient.map(([, f]) => f.watched)).toEqual([
      ...watched.slice(0, 10),
      false,
      ...watched.slice(11),
    ]);
  });

  it('counts generic redefinitions only on their libraries, and a metatable only with one', () => {
    const worth = (src: string) => skimLua(src, SKIM_WATCH).worth;
    // `hook.Add` replaced hides hooks; `PANEL:Add` is an ordinary method.
    expect(worth('function hook.Add(event, id, fn) end')).toBe(true);
    expect(worth('hook . Add = function() end')).toBe(true);
    expect(worth('net.Receive = function() end')).toBe(true);
    expect(worth('function PANEL:Add(child) end')).toBe(false);
    expect(worth('ITEM.Start = function() end')).toBe(false);
    // As strings: a button label is no redefinition, `meta["IsAdmin"]` is one.
    expect(worth('local b = vgui.Create("DButton") b:SetText("Add")')).toBe(false);
    expect(worth('meta["IsAdmin"] = function() return true end')).toBe(true);
    // A metatable lookup alone is not worth a tree; with a watched redefinition it is.
    expect(worth('local PLAYER = FindMetaTable("Player")\nfunction PLAYER:GetLevel() end')).toBe(
      false,
    );
    expect(
      worth('local PLAYER = FindMetaTable("Player")\nfunction PLAYER:IsAdmin() return true end'),
    ).toBe(true);
  });

  it('counts a name watched on one table only there, as the parser does', () => {
    const src = [
      'function a() local cmds = concommand.GetTable() end',
      'function b() local cmds = concommand . GetTable() end',
      'function c(ent) local t = ent:GetTable() end',
      'function d(ent) local t = metaEntity.GetTable(ent) end',
      'function e() local t = ENT_META.GetTable end',
    ].join('\n');
    const skim = skimLua(src, SKIM_WATCH);
    const skimmed = [...skim.functions.entries()]
      .sort((x, y) => x[0] - y[0])
      .map(([, f]) => f.watched);
    expect(skimmed).toEqual([true, true, false, false, false]);
    const parsed = parseLua(src, { watch: FUNCTION_WATCH }).functions.map((f) => f.watched);
    expect(parsed).toEqual(skimmed);
  });

  it('counts a setting read by a name not written there, as the parser does', () => {
    const src = [
      'function a(name) local v = GetConVar(name):GetString() end',
      'function b() local v = GetConVar( list[1] ) end',
      'function c() local v = GetConVar("hostname"):GetString() end',
      "function d() local v = GetConVarString('sv_gravity') end",
      'function e(name) local v = GetConVarString(name) end',
      'function f() local v = GetConVar() end',
    ].join('\n');
    const skimmed = [...skimLua(src, SKIM_WATCH).functions.entries()]
      .sort((x, y) => x[0] - y[0])
      .map(([, f]) => f.watched);
    expect(skimmed).toEqual([true, true, false, false, true, false]);
    const parsed = parseLua(src, { watch: FUNCTION_WATCH }).functions.map((f) => f.watched);
    expect(parsed).toEqual(skimmed);
  });

  it('judges a whole file: worth a tree for its top level, its functions or a registered known name', () => {
    // A URL or a SteamID lookup alone is mentioned, not worth a tree; a registration is.
    const url = skimLua(
      'local url = "https://example.invalid"\nprint(LocalPlayer():SteamID())',
      SKIM_WATCH,
    );
    expect([url.watched, url.worth]).toEqual([true, false]);
    expect(skimLua('concommand.Remove("host_writeid")', SKIM_WATCH).worth).toBe(true);
    expect(skimLua('local function f() RunString(x) end', SKIM_WATCH).worth).toBe(true);
    // A known backdoor net name, in any case, counts where a receiver is registered…
    const named = 'local M = {}\nfunction M.start() net.Receive("_BlackSmurf", function() end) end';
    expect(skimLua(named, SKIM_WATCH).worth).toBe(false);
    const intelWatch = skimWatchFor(loadThreatIntel());
    const withIntel = skimLua(named, intelWatch);
    expect(withIntel.worth).toBe(true);
    expect([...withIntel.functions.values()][0]!.watched).toBe(true);
    // …not as plain data, such as a language file's string.
    expect(skimLua('L.smurf_title = "_BlackSmurf"', intelWatch).worth).toBe(false);
  });

  it('calls a file unbalanced when the parser would report an error', () => {
    for (const src of [
      'local s = "open',
      'if x then',
      'end',
      'repeat end',
      'local x = $',
      'x = a & b',
      'f(',
      '--[[ never closed',
      '('.repeat(1000) + ')'.repeat(1000),
      // More functions than the skim records: left to the parser and its token budget.
      'local f = function() end\n'.repeat(200_001),
    ]) {
      expect(skimLua(src, SKIM_WATCH).balanced, src.slice(0, 20)).toBe(false);
      expect(skimLua(src, SKIM_WATCH).functions.size).toBe(0);
    }
  });

  it('parses lazily into the same tree as a full parse, once bodies are read', () => {
    const files = SNIPPETS.map((s, i) => ({ name: `snippet ${i}`, src: s }));
    try {
      for (const path of luaFilesUnder(samplesRoot))
        files.push({ name: path, src: readFileSync(path, 'latin1') });
    } catch {
      // Without ../shared/samples beside the repository, the snippets still run.
    }
    let lazyBodies = 0;
    for (const { name, src } of files) {
      const skim = skimLua(src, SKIM_WATCH);
      if (!skim.balanced) continue;
      const full = parseLua(src);
      const lazy = parseLua(src, { skim });
      walk(lazy.chunk, (n) => {
        if (n.type === 'FunctionDeclaration' && n.lazy) lazyBodies++;
        return n.type !== 'FunctionDeclaration';
      });
      expect(lazy.errors, name).toEqual(full.errors);
      expect(fullTree(lazy.chunk), name).toBe(fullTree(full.chunk));
    }
    expect(lazyBodies).toBeGreaterThan(3);
  });

  it('leaves unwatched functions nested in a lazy body lazy when that body is parsed', () => {
    const src = [
      'function Outer()',
      '  local inner = function() return 1 end',
      '  timer.Simple(1, function() print(inner()) end)',
      'end',
    ].join('\n');
    const skim = skimLua(src, SKIM_WATCH);
    const outer = parseLua(src, { skim }).chunk.body[0] as FunctionDeclaration;
    expect(outer.lazy).toBeDefined();
    expect(functionBody(outer)).toHaveLength(2);
    const inner: FunctionDeclaration[] = [];
    walk({ type: 'Chunk', body: outer.body, line: 1, offset: 0, endOffset: 0 }, (n) => {
      if (n.type === 'FunctionDeclaration') inner.push(n);
      return n.type !== 'FunctionDeclaration';
    });
    expect(inner).toHaveLength(2);
    expect(inner.every((f) => f.lazy !== undefined)).toBe(true);
    // Read in turn, the whole tree is the one a full parse gives.
    expect(fullTree(outer)).toBe(fullTree(parseLua(src).chunk.body[0]!));
  });

  it('answers which names a file may use, and where', () => {
    const src = 'local function helper() end\nMyAddon.run(x) -- helper\nprint("runner")';
    const skim = skimLua(src, SKIM_WATCH);
    expect(mayMention(skim, wordHash('helper'))).toBe(true);
    expect(mayMention(skim, wordHash('MyAddon'))).toBe(true);
    expect(mayMention(skim, wordHash('RunString'))).toBe(false);
    expect(wordOffsets(src, 'MyAddon.run')).toEqual([src.indexOf('MyAddon.run')]);
    // A bare name is not matched where it is a field: `MyAddon.run` is no call of `run`.
    expect(wordOffsets(src, 'run')).toEqual([]);
    expect(wordOffsets('x = a .. run(1) + b:run()', 'run')).toEqual([9]);
    // The definition is not a use; the comment is (a superset is fine).
    expect(wordOffsets(src, 'helper')).toEqual([src.lastIndexOf('helper')]);
  });

  it('does not take definitions or assignment targets for uses', () => {
    const src = [
      'function PANEL:Init() end',
      'local function grant(p) end',
      'MyAddon.f = function() end',
      'MyAddon.f = MyAddon.f or grant',
      'if MyAddon.f == nil then grant(1) end',
      'concommand.Add("x", PANEL:Init)',
    ].join('\n');
    const at = (needle: string, from = 0) => src.indexOf(needle, from);
    expect(wordOffsets(src, 'PANEL:Init')).toEqual([at('PANEL:Init', 10)]);
    expect(wordOffsets(src, 'grant')).toEqual([at('grant', 60), at('grant(1)')]);
    // The second line's target is skipped, its value is a use; so is the comparison.
    expect(wordOffsets(src, 'MyAddon.f')).toEqual([at('MyAddon.f or'), at('MyAddon.f ==')]);
    // A name that merely ends in "function" is no keyword.
    expect(wordOffsets('myfunction grant', 'grant')).toEqual([11]);
  });

  it('searches only the ranges given, reading what surrounds a use in the whole text', () => {
    const src = 'grant(1)\nlocal function f() x.grant(2) grant(3) end\ngrant(4)';
    const body = [src.indexOf(')', src.indexOf('f(')) + 1, src.indexOf('end') + 3];
    expect(wordOffsets(src, 'grant')).toEqual([
      0,
      src.indexOf('grant(3)'),
      src.indexOf('grant(4)'),
    ]);
    // The field before the body's first use is seen although the range starts after the dot.
    expect(wordOffsets(src, 'grant', body)).toEqual([src.indexOf('grant(3)')]);
    expect(wordOffsets(src, 'grant', [src.indexOf('grant(2)'), body[1]!])).toEqual([
      src.indexOf('grant(3)'),
    ]);
  });

  it('ends a line comment at its line break, whatever its length and break', () => {
    for (const opener of ['--', '//'])
      // Up to three four-byte reads and every offset of the break within one.
      for (let length = 0; length < 14; length++)
        for (const eol of ['\n', '\r', '\r\n', '']) {
          const src = `local a = 1 ${opener}${'x'.repeat(length)}${eol}${eol ? 'local b = a' : ''}`;
          const skim = skimLua(src, SKIM_WATCH);
          const { facts, lines } = parseLua(src);
          expect([skim.lines, skim.longestLineLength, skim.identifiers], src).toEqual([
            lines,
            facts.longestLineLength,
            eol ? 5 : 2,
          ]);
        }
  });

  it('reads line breaks and the white space after them the same wherever they fall', () => {
    // The main loop goes from a line break through the indentation to the next token
    // without coming round: a break or spaces at the very end must end the skim cleanly.
    for (const space of ['', ' ', '\t\t', ' \t '])
      for (const eol of ['\n', '\r', '\r\n', '\n\n', '\r\n\r\n'])
        for (const tail of ['', space, `${space}b()`, `${eol}${space}`, `${space}"x"`]) {
          const src = `a = 1${space}${eol}${space}a()${eol}${tail}`;
          const skim = skimLua(src, SKIM_WATCH);
          const { facts, lines } = parseLua(src);
          expect([skim.balanced, skim.lines, skim.longestLineLength], JSON.stringify(src)).toEqual([
            true,
            lines,
            facts.longestLineLength,
          ]);
        }
  });

  it('reads strings, long brackets and names four bytes at a time with the same result', () => {
    // Every offset of a quote, escape, break or name end within a four-byte read, and reads
    // that would pass the end of the file.
    for (let pad = 0; pad < 9; pad++) {
      const x = 'x'.repeat(pad);
      for (const src of [
        `a = "${x}"`,
        `a = '${x}"' .. "${x}'"`,
        `a = "${x}\\"" .. "${x}\\\\"`,
        `a = "${x}\\\n${x}"`,
        `a = "${x}\\z\n  ${x}"`,
        `a = "${x}\tb"`,
        `a = "${x}`,
        `a = "${x}\nb = 1`,
        `a = [[${x}\n${x}\r\n${x}\r${x}]]`,
        `--[==[${x}\r\n${x}]==]\nb = 1`,
        `/* ${x}\n${x} */ b = 1`,
        `a${x} = b${x}`,
        `b = a${x}`,
      ]) {
        const skim = skimLua(src, SKIM_WATCH);
        const parsed = parseLua(src);
        const { facts, lines } = parsed;
        expect([skim.balanced, skim.lines, skim.longestLineLength], JSON.stringify(src)).toEqual([
          parsed.errors.length === 0,
          lines,
          facts.longestLineLength,
        ]);
        if (src.includes(`a${x} `) || src.endsWith(`a${x}`))
          expect(mayMention(skim, wordHash(`a${x}`)), src).toBe(true);
      }
    }
  });

  it('finds a needle wherever it starts in a string, and only a whole one', () => {
    const watched = (src: string) => skimLua(src, SKIM_WATCH).watched;
    for (let before = 0; before < 7; before++)
      for (const after of ['', 'x', 'xy', 'xyz']) {
        const text = 'a'.repeat(before) + 'https:' + after;
        expect(watched(`local u = "${text}"`), text).toBe(true);
        expect(watched(`local u = [[${text}]]`), text).toBe(true);
        expect(watched(`local u = "${text.replace(':', '')}"`), text).toBe(false);
      }
    expect(watched('local u = "ahttps" .. ":"')).toBe(false);
    expect(watched('local u = "xx7656119"')).toBe(true);
    expect(watched('local u = "xx765611"')).toBe(false);
  });

  it('records defined paths without the white space around their separators', () => {
    const skim = skimLua(
      'function a . b : c() end\nfunction d\u00a0e() end\nfunction f.g() end',
      SKIM_WATCH,
    );
    expect(skim.defines).toEqual(['a.b:c', 'de', 'f.g']);
  });

  it('finds every use whichever byte of the name it searches from', () => {
    // The search starts at the name's rarest byte (`Q`); what comes before is compared after.
    const src = 'aQ(xaQ(aQ(QaQ(aQ';
    expect(wordOffsets(src, 'aQ')).toEqual([0, 7, 14]);
    expect(wordOffsets(src, 'aQ', [1, 13])).toEqual([7]);
    expect(wordOffsets(src, 'aQ', [7, 9, 14, 16])).toEqual([7, 14]);
    expect(wordOffsets(src, 'aQ', [7, 8])).toEqual([]);
    // Random texts of a few bytes, against a plain search: leftmost occurrences that do not
    // overlap, inside the ranges, not next to an identifier byte, and for a bare name not
    // after a dot (a field).
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const pieces = ['q', 'Q', 'qQ', 'Qq', '(', ' ', 'qQq', '.', 'q.q'];
    const names = ['qQq', 'Qq', 'qQ', 'qqQ', 'q.q', 'Q.q', 'q.Q.q'];
    for (let round = 0; round < 400; round++) {
      const text = Array.from({ length: 40 }, () => pieces[random(pieces.length)]).join('');
      const name = names[round % names.length]!;
      const cuts = [random(40), random(40), random(40)].sort((a, b) => a - b);
      const ranges = random(2) ? undefined : [cuts[0]!, cuts[1]!, cuts[2]!, text.length];
      const isField = (at: number) => {
        let i = at - 1;
        while (text[i] === ' ') i--;
        return text[i] === '.' && text[i - 1] !== '.';
      };
      const expected: number[] = [];
      const parts = ranges ?? [0, text.length];
      for (let r = 0; r < parts.length; r += 2)
        for (
          let at = text.indexOf(name, parts[r]);
          at >= 0 && at + name.length <= parts[r + 1]!;
          at = text.indexOf(name, at + name.length)
        ) {
          if (/\w/.test(text[at - 1] ?? ' ') || /\w/.test(text[at + name.length] ?? ' ')) continue;
          if (!name.includes('.') && isField(at)) continue;
          expected.push(at);
        }
      expect(wordOffsets(text, name, ranges), `${text} ${name} ${ranges}`).toEqual(expected);
    }
  });

  it('counts the code identifiers and the machine-made ones', () => {
    const skim = skimLua(
      [
        'local _0x1f2e, lIlIlIlIlI = 1, 2 -- _0x3f in a comment is not code',
        'local AdditiveVolumeFraction = "xkqjvbzmwplrtnhgfdsycx"',
        'local xkqjvbzmwplrtnhgfdsycx = 3',
      ].join('\n'),
      SKIM_WATCH,
    );
    expect(skim.obfuscatedIdentifiers).toBe(3);
    // Keywords count as words too (three `local`), as the lexical-noise ratio always has.
    expect(skim.identifiers).toBe(7);
  });
});
