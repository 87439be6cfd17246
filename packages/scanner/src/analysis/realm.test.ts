// Realm by path: the walk over folder names answers as the rules written as regexes do.
import type { Realm } from '@sentinelle/contracts';
import { describe, expect, it } from 'vitest';
import { realmOfPath } from './realm.js';

/** The rules as regexes over the whole path, as they were first written. */
function byRegexes(path: string, clientFiles?: ReadonlySet<string>): Realm {
  const p = path.toLowerCase().replace(/\\/g, '/');
  const segs = p.split('/');
  const file = segs[segs.length - 1] ?? '';
  if (/(^|\/)autorun\/server\//.test(p)) return 'server';
  if (/(^|\/)autorun\/client\//.test(p)) return 'client';
  if (/(^|\/)(entities|weapons|effects)\/[^/]+\//.test(p) || /(^|\/)gamemode\//.test(p)) {
    if (file === 'init.lua') return 'server';
    if (file === 'cl_init.lua') return 'client';
    if (file === 'shared.lua') return 'shared';
  }
  if (/^sv_|_sv\.lua$/.test(file)) return 'server';
  if (/^cl_|_cl\.lua$/.test(file)) return 'client';
  if (/^sh_|_sh\.lua$/.test(file)) return 'shared';
  const dirs = segs.slice(0, -1);
  if (dirs.some((d) => d === 'server' || d === 'sv')) return 'server';
  if (dirs.some((d) => ['client', 'cl', 'vgui', 'menu', 'derma'].includes(d))) return 'client';
  if (dirs.some((d) => d === 'shared' || d === 'sh')) return 'shared';
  if (clientFiles) {
    const rel = p.replace(/^.*?lua\//, '');
    if (clientFiles.has(rel) || clientFiles.has(file)) return 'shared';
  }
  if (!p.endsWith('.lua')) return 'server';
  return 'shared';
}

describe('realmOfPath', () => {
  it("follows Garry's Mod's path conventions", () => {
    expect(realmOfPath('lua/autorun/server/a.lua')).toBe('server');
    expect(realmOfPath('lua/autorun/client/a.lua')).toBe('client');
    expect(realmOfPath('lua/autorun/a.lua')).toBe('shared');
    expect(realmOfPath('lua/autorun/server')).toBe('server');
    expect(realmOfPath('lua/autorun/client')).toBe('server');
    expect(realmOfPath('lua/autorun/client/server/a.lua')).toBe('client');
    expect(realmOfPath('Lua\\AutoRun\\Client\\x.lua')).toBe('client');
    expect(realmOfPath('lua/entities/door/init.lua')).toBe('server');
    expect(realmOfPath('lua/entities/door/cl_init.lua')).toBe('client');
    expect(realmOfPath('lua/weapons/gun/shared.lua')).toBe('shared');
    expect(realmOfPath('lua/entities/init.lua')).toBe('shared');
    expect(realmOfPath('lua/entities//init.lua')).toBe('shared');
    expect(realmOfPath('gamemodes/x/gamemode/init.lua')).toBe('server');
    expect(realmOfPath('lua/x/sv_a.lua')).toBe('server');
    expect(realmOfPath('lua/x/a_cl.lua')).toBe('client');
    expect(realmOfPath('lua/x/sh_a.lua')).toBe('shared');
    expect(realmOfPath('lua/cl/sv/a.lua')).toBe('server');
    expect(realmOfPath('lua/derma/a.lua')).toBe('client');
    expect(realmOfPath('lua/sh/a.lua')).toBe('shared');
    expect(realmOfPath('lua/x/a.lua', new Set(['x/a.lua']))).toBe('shared');
    expect(realmOfPath('data/a.txt')).toBe('server');
  });

  it('answers as the regex rules on paths built from the words they look for', () => {
    const words = [
      'autorun',
      'server',
      'client',
      'shared',
      'sv',
      'cl',
      'sh',
      'entities',
      'weapons',
      'effects',
      'gamemode',
      'lua',
      'vgui',
      'menu',
      'derma',
      '',
      'x',
      'init.lua',
      'cl_init.lua',
      'shared.lua',
      'sv_a.lua',
      'a_sv.lua',
      'cl_b.lua',
      'b_cl.lua',
      'sh_c.lua',
      'c_sh.lua',
      'AutoRun',
      'SERVER',
      'a.txt',
      'İ',
      'lua\\server',
    ];
    const clientFiles = new Set(['x/init.lua', 'x', 'a.txt']);
    let seed = 5;
    const random = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    for (let i = 0; i < 5_000; i++) {
      const parts: string[] = [];
      for (let j = 1 + random(6); j > 0; j--) parts.push(words[random(words.length)]!);
      const path = parts.join(random(6) === 0 ? '\\' : '/');
      expect(realmOfPath(path), path).toBe(byRegexes(path));
      expect(realmOfPath(path, clientFiles), path).toBe(byRegexes(path, clientFiles));
    }
  });
});
