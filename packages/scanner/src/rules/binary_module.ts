// GB-011: native modules (gmsv_/gmcl_ .dll/.so) that are not on the allowlist: opaque code
// with full access to the machine.
import { textOf } from '../analysis/values.js';
import { findIoc } from '../intel/index.js';
import type { ThreatIntel } from '../intel/types.js';
import { makeFinding } from './support.js';
import type { Finding, Rule } from './types.js';

const LOADER_STRINGS =
  /RunString|lua_loadbuffer|luaL_loadbuffer|http|curl|\.php|\.invalid|wininet|socket/i;
/** Code loading from native code: what a module that runs Lua it receives calls. */
const RUNS_LUA = /RunString|lua_loadbuffer|luaL_loadbuffer|luaL_loadstring|CompileString/;
/** The server's passwords, which no networking or database module has a reason to name. */
const SERVER_PASSWORDS = /rcon_password|sv_password/;
const WEB_ADDRESS = /https?:\/\/[\w.-]+/i;

/**
 * What a module's strings show it does beyond being unknown: a known command-and-control
 * host, or the three parts of a native implant together (it runs Lua, names the server's
 * passwords and holds a web address: GB-015 and GB-001 in native code, gAC's and gpwn's
 * shape). Legitimate modules (HTTP clients, database drivers, websockets) hold URLs or a
 * loader, never the passwords with them.
 */
function implantIn(strings: readonly string[], intel: ThreatIntel): string | undefined {
  const text = strings.join('\n');
  const ioc = findIoc(intel, text);
  if (ioc !== undefined) return `known command-and-control host ${ioc}`;
  const loader = RUNS_LUA.exec(text)?.[0];
  const password = SERVER_PASSWORDS.exec(text)?.[0];
  const url = WEB_ADDRESS.exec(text)?.[0];
  if (loader && password && url) return `runs Lua (${loader}), names ${password}, calls ${url}`;
  return undefined;
}

export const rule: Rule = {
  meta: {
    id: 'binary_module',
    category: 'memory_corruption',
    severity: 'high',
    techniques: ['GB-011'],
    verdictClass: 'suspicious',
    text: {
      en: {
        title: 'Unknown binary module',
        description:
          'The addon ships a native module (DLL/SO) that is not a known, verified build. Native code runs with the full rights of the server process and cannot be reviewed like Lua.',
        recommendation:
          'Only install binary modules from their official project pages; remove this one unless you can verify its origin.',
      },
      fr: {
        title: 'Module binaire inconnu',
        description:
          "L'addon fournit un module natif (DLL/SO) qui n'est pas une version connue et vérifiée. Le code natif s'exécute avec tous les droits du processus serveur et ne peut pas être relu comme du Lua.",
        recommendation:
          "N'installez des modules binaires que depuis leur page officielle ; supprimez celui-ci sauf si vous pouvez vérifier son origine.",
      },
    },
  },
  check({ analysis, intel }) {
    const out: Finding[] = [];
    for (const m of analysis.binaryModules) {
      const known = m.sha256
        ? intel.allowlistedModuleHashes.get(m.sha256.toLowerCase())
        : undefined;
      if (known) continue;
      const implant = implantIn(m.strings ?? [], intel);
      if (implant !== undefined) {
        out.push(
          makeFinding(rule, analysis, {
            severity: 'critical',
            confidence: 0.9,
            pattern: `binary module ${m.path.split('/').pop()}: ${implant}`,
            file: m.path,
            line: 0,
            decoded: `embedded strings: ${implant.slice(0, 200)}`,
            techniques: ['GB-011', 'GB-015', 'GB-001'],
            verdictClass: 'backdoor',
          }),
        );
        continue;
      }
      const loaderHint = (m.strings ?? []).find((s) => LOADER_STRINGS.test(s));
      out.push(
        makeFinding(rule, analysis, {
          severity: loaderHint ? 'high' : 'medium',
          confidence: loaderHint ? 0.85 : 0.5,
          pattern: `binary module ${m.path.split('/').pop()}`,
          file: m.path,
          line: 0,
          ...(loaderHint ? { decoded: `embedded string: ${loaderHint.slice(0, 200)}` } : {}),
        }),
      );
    }
    // `package.loadlib(path, entry)`: a native library loaded by path, shipped or not.
    for (const ev of analysis.calls) {
      if (ev.api !== 'package.loadlib') continue;
      const lib = ev.args[0] ? (textOf(ev.args[0]) ?? '…') : '…';
      out.push(
        makeFinding(rule, analysis, {
          severity: 'high',
          confidence: 0.8,
          pattern: `package.loadlib("${lib.slice(0, 120)}")`,
          file: ev.file,
          line: ev.line,
          decoded: ev.decoded,
        }),
      );
    }
    return out;
  },
};
