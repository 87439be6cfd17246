// Decides which realm (server, client or shared) a file runs in from Garry's Mod's path
// conventions: a RunString reachable from a server receiver outweighs one in a client HUD.
import type { Realm } from '@sentinelle/contracts';

/**
 * The realm by the first rule that applies, in this order: `autorun/server/`, then
 * `autorun/client/`; an entity or gamemode folder's `init.lua`, `cl_init.lua` or `shared.lua`;
 * an `sv_`/`cl_`/`sh_` prefix or `_sv`/`_cl`/`_sh` suffix of the file name; a server, then
 * client, then shared folder anywhere; a file the addon sends to clients; else shared for Lua.
 * One walk over the folder names in place: this runs for every Lua file of every scan, and a
 * regex per rule and a split of the path cost more than the rest of what is done per file here.
 */
export function realmOfPath(path: string, clientFiles?: ReadonlySet<string>): Realm {
  const lower = path.toLowerCase();
  const p = lower.includes('\\') ? lower.replaceAll('\\', '/') : lower;
  // Folder names are p[start, end) for every `/` at end; the file name follows the last one.
  const last = p.lastIndexOf('/');
  const file = p.slice(last + 1);
  let autorun: Realm | undefined;
  let entityFolder = false;
  let server = false;
  let client = false;
  let shared = false;
  for (
    let start = 0, end = p.indexOf('/');
    end !== -1;
    start = end + 1, end = p.indexOf('/', start)
  ) {
    // The next name is a folder too when this one is not the last folder.
    const nextEnd = end < last ? p.indexOf('/', end + 1) : -1;
    if (named(p, start, end, 'autorun') && nextEnd !== -1 && autorun !== 'server') {
      if (named(p, end + 1, nextEnd, 'server')) autorun = 'server';
      else if (named(p, end + 1, nextEnd, 'client')) autorun = 'client';
    }
    if (
      named(p, start, end, 'gamemode') ||
      (nextEnd > end + 1 &&
        (named(p, start, end, 'entities') ||
          named(p, start, end, 'weapons') ||
          named(p, start, end, 'effects')))
    )
      entityFolder = true;
    if (named(p, start, end, 'server') || named(p, start, end, 'sv')) server = true;
    else if (
      named(p, start, end, 'client') ||
      named(p, start, end, 'cl') ||
      named(p, start, end, 'vgui') ||
      named(p, start, end, 'menu') ||
      named(p, start, end, 'derma')
    )
      client = true;
    else if (named(p, start, end, 'shared') || named(p, start, end, 'sh')) shared = true;
  }
  if (autorun) return autorun;
  if (entityFolder) {
    if (file === 'init.lua') return 'server';
    if (file === 'cl_init.lua') return 'client';
    if (file === 'shared.lua') return 'shared';
  }
  if (file.startsWith('sv_') || file.endsWith('_sv.lua')) return 'server';
  if (file.startsWith('cl_') || file.endsWith('_cl.lua')) return 'client';
  if (file.startsWith('sh_') || file.endsWith('_sh.lua')) return 'shared';
  if (server) return 'server';
  if (client) return 'client';
  if (shared) return 'shared';
  if (clientFiles) {
    const rel = p.replace(/^.*?lua\//, '');
    if (clientFiles.has(rel) || clientFiles.has(file)) return 'shared';
  }
  if (!p.endsWith('.lua')) return 'server';
  return 'shared';
}

/** Whether p[start, end) is the name. */
function named(p: string, start: number, end: number, name: string): boolean {
  return end - start === name.length && p.startsWith(name, start);
}
