// GB-007: code gated on a literal SteamID or player name that grants ranks, runs code,
// unbans or hands out god mode/money. A gate that only shows a badge stays low.
import { ADMITTED, CONSOLE_SINKS, EXEC_SINKS, PRIVILEGE_SINKS } from '../analysis/api.js';
import type { CallEvent } from '../analysis/types.js';
import { taintOf, textOf } from '../analysis/values.js';
import { chainFor, decodedFor, makeFinding, triggerOf } from './support.js';
import type { Finding, Rule } from './types.js';

const SENSITIVE =
  /^(Player:(GodEnable|Give|SetHealth|SetArmor|addMoney|SetUserGroup)|ULib\.(unban|ucl\.\w+)|ulx\.(adduser|adduserid|luarun|rcon|cexec|unban))$/;

function sensitive(ev: CallEvent): boolean {
  if (CONSOLE_SINKS.has(ev.api)) {
    // Kick/ban lists of hard-coded IDs are what SkidCheck-style tools do.
    const text = ev.args.map((a) => textOf(a) ?? '').join(' ');
    const tainted = ev.args.some((a) => (taintOf(a)?.length ?? 0) > 0);
    return tainted || (text.trim() !== '' && !/\b(kick|ban|kickid|banid)\b/i.test(text));
  }
  // A CheckPassword hook letting the ID in: past the password and the admin mod's bans.
  if (ev.api === ADMITTED) return true;
  return PRIVILEGE_SINKS.has(ev.api) || ev.api in EXEC_SINKS || SENSITIVE.test(ev.api);
}

export const rule: Rule = {
  meta: {
    id: 'steamid_gate',
    category: 'backdoor',
    severity: 'critical',
    techniques: ['GB-007'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Privileges reserved to a hard-coded SteamID',
        description:
          'Code runs only for a SteamID or player name written into the addon, and it grants ranks, runs code, unbans or gives advantages. This is how authors keep a private way into servers.',
        recommendation:
          'Remove the addon, ban the SteamIDs it names, and check your admin groups and ban list for changes.',
      },
      fr: {
        title: 'Privilèges réservés à un SteamID écrit en dur',
        description:
          "Du code ne s'exécute que pour un SteamID ou un pseudo écrit dans l'addon, et il donne des rangs, exécute du code, débannit ou accorde des avantages. C'est ainsi que des auteurs gardent un accès privé aux serveurs.",
        recommendation:
          "Supprimez l'addon, bannissez les SteamID qu'il cite et vérifiez vos groupes d'administration et votre liste de bannissements.",
      },
    },
  },
  check({ analysis }) {
    const out: Finding[] = [];
    const byTrigger = new Map<string, CallEvent[]>();
    for (const ev of analysis.calls) {
      const t = triggerOf(ev.ctx);
      if (!t) continue;
      const key = `${t.file}:${t.line}:${t.label}`;
      const list = byTrigger.get(key) ?? [];
      list.push(ev);
      byTrigger.set(key, list);
    }
    for (const events of byTrigger.values()) {
      const t = triggerOf(events[0]!.ctx)!;
      const hit = events.find(sensitive);
      if (hit) {
        out.push(
          makeFinding(rule, analysis, {
            confidence: 0.9,
            pattern: `${t.label} → ${hit.api}`,
            file: t.file,
            line: t.line,
            decoded: decodedFor(hit) ?? hit.decoded,
            chain: chainFor(hit, []),
          }),
        );
      }
    }
    return out;
  },
};
