// Decides which realm (server, client or shared) a file runs in from Garry's Mod's path
// conventions: a RunString reachable from a server receiver outweighs one in a client HUD.
import type { Realm } from '@sentinelle/contracts';

export function realmOfPath(path: string, clientFiles?: ReadonlySet<string>): Realm {
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
  if (
    dirs.some((d) => d === 'client' || d === 'cl' || d === 'vgui' || d === 'menu' || d === 'derma')
  )
    return 'client';
  if (dirs.some((d) => d === 'shared' || d === 'sh')) return 'shared';
  if (clientFiles) {
    const rel = p.replace(/^.*?lua\//, '');
    if (clientFiles.has(rel) || clientFiles.has(file)) return 'shared';
  }
  if (!p.endsWith('.lua')) return 'server';
  return 'shared';
}
