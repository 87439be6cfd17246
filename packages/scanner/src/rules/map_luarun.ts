// GB-013: lua_run / point_servercommand entities inside a map's entity lump.
import { luaRunEntities } from '../analysis/index.js';
import { makeFinding } from './support.js';
import type { Finding, Rule } from './types.js';

const DANGER =
  /RunString|CompileString|http\.|HTTP|SetUserGroup|STEAM_\d|7656119\d{10}|ulx|rcon|BroadcastLua|SendLua|sv_allowcslua|sv_cheats|lua_run/;
/** Commands that hand the server over: a known RCON password, clients' own Lua (GB-023). */
const TAKEOVER = /\b(rcon_password\s+\S|sv_allowcslua\s+"?1)/;

export const rule: Rule = {
  meta: {
    id: 'map_luarun',
    category: 'backdoor',
    severity: 'high',
    techniques: ['GB-013'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Code hidden in a map',
        description:
          'The map contains lua_run or point_servercommand entities. Map triggers then run Lua or console commands on your server when the map loads.',
        recommendation:
          'Remove the map or strip these entities; check what the code does (remote loaders, SteamID gates).',
      },
      fr: {
        title: 'Code caché dans une carte',
        description:
          'La carte contient des entités lua_run ou point_servercommand. Ses déclencheurs exécutent alors du Lua ou des commandes console sur votre serveur au chargement de la carte.',
        recommendation:
          'Supprimez la carte ou retirez ces entités ; vérifiez ce que fait le code (chargeurs distants, conditions sur des SteamID).',
      },
    },
  },
  check({ analysis }) {
    const out: Finding[] = [];
    for (const map of analysis.maps) {
      for (const ent of luaRunEntities(map.mapEntities ?? '')) {
        const danger = DANGER.test(ent.code);
        const takeover = ent.classname === 'point_servercommand' && TAKEOVER.test(ent.code);
        out.push(
          makeFinding(rule, analysis, {
            // (A lua_run's code is analysed with the addon's own: see analyzeAddon. Scripted
            // events calling the map's own functions are common; alone it is a note.)
            severity: takeover ? 'critical' : danger ? 'high' : 'low',
            confidence: takeover ? 0.9 : danger ? 0.85 : 0.4,
            ...(takeover ? { techniques: ['GB-013', 'GB-023'] } : {}),
            pattern: `${ent.classname} entity`,
            file: map.path,
            line: ent.line,
            decoded: ent.code.slice(0, 1000),
            verdictClass: danger ? 'backdoor' : 'suspicious',
          }),
        );
      }
    }
    return out;
  },
};
