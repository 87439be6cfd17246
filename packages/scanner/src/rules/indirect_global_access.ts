// GB-028: API functions reached through `_G[...]`, getfenv(), rawget(_G, …), the registry or
// metatables with escaped/computed keys that resolve to dangerous names.
import { makeFinding } from './support.js';
import type { Finding, Rule } from './types.js';

const DANGEROUS =
  /^(RunString|RunStringEx|CompileString|CompileFile|loadstring|load|http|http\.Fetch|http\.Post|HTTP|BroadcastLua|RunConsoleCommand|game|game\.ConsoleCommand|timer|timer\.Simple|timer\.Create|debug|debug\.getregistry|setfenv|getfenv|net|concommand|file|sql|steamworks|jit)$/;

export const rule: Rule = {
  meta: {
    id: 'indirect_global_access',
    category: 'obfuscation',
    severity: 'medium',
    techniques: ['GB-028'],
    verdictClass: 'suspicious',
    text: {
      en: {
        title: 'Dangerous functions reached indirectly',
        description:
          'Functions such as RunString or http.Fetch are looked up through _G[...], getfenv(), rawget or the registry with encoded or computed names, so that a text search cannot find them.',
        recommendation:
          'Look at what the resolved calls do (shown decoded); remove the addon if they fetch or run code.',
      },
      fr: {
        title: 'Fonctions dangereuses atteintes indirectement',
        description:
          "Des fonctions comme RunString ou http.Fetch sont récupérées via _G[...], getfenv(), rawget ou le registre avec des noms encodés ou calculés, pour qu'une recherche textuelle ne les trouve pas.",
        recommendation:
          "Regardez ce que font les appels résolus (affichés décodés) ; supprimez l'addon s'ils téléchargent ou exécutent du code.",
      },
    },
  },
  check({ analysis }) {
    const out: Finding[] = [];
    const seen = new Set<string>();
    // Where a sink was called through a computed lookup.
    const calledAt = new Set<string>();
    for (const ev of analysis.calls)
      if (ev.via === 'decoded' || ev.via === 'registry') calledAt.add(`${ev.file}:${ev.line}`);
    for (const ix of analysis.indexes) {
      if (ix.base !== '_G' && ix.base !== '_R') continue;
      const resolved = ix.resolved ?? ix.key ?? '';
      if (!ix.keyDecoded || !DANGEROUS.test(resolved)) continue;
      const key = `${ix.file}:${ix.line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const sinks = /^(RunString|RunStringEx|CompileString|loadstring|BroadcastLua)$/.test(
        resolved,
      );
      const fn =
        resolved.includes('.') ||
        sinks ||
        /^(HTTP|RunConsoleCommand|getfenv|setfenv)$/.test(resolved);
      // A sink's name kept as plain text and looked up without being called here: an
      // anti-cheat checking that the client's RunString is still the engine's hides nothing
      // and runs nothing. On a server the function may be kept to be called later (a custom
      // VM's stack), so it stays worth a look. A call through the lookup is judged below.
      const plainLook = ix.plainKey === true && !calledAt.has(key);
      const severity = !sinks
        ? fn
          ? 'medium'
          : 'low'
        : !plainLook
          ? 'high'
          : ix.realm === 'client'
            ? 'low'
            : 'medium';
      out.push(
        makeFinding(rule, analysis, {
          severity,
          confidence: 0.7,
          pattern: `${ix.base}[…] → ${resolved}`,
          file: ix.file,
          line: ix.line,
          decoded: ix.decoded ?? `${ix.base}["${ix.key ?? '?'}"] = ${resolved}`,
        }),
      );
    }
    // The sink itself called through a decoded lookup.
    for (const ev of analysis.calls) {
      if (ev.via !== 'decoded' && ev.via !== 'registry') continue;
      if (
        !/^(RunString|RunStringEx|CompileString|loadstring|http\.Fetch|http\.Post|HTTP)$/.test(
          ev.api,
        )
      )
        continue;
      const key = `${ev.file}:${ev.line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(
        makeFinding(rule, analysis, {
          severity: 'high',
          confidence: 0.75,
          pattern: `${ev.api} reached via ${ev.via} lookup`,
          file: ev.file,
          line: ev.line,
          decoded: ev.decoded ?? ev.api,
        }),
      );
    }
    return out;
  },
};
