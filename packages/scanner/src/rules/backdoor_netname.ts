// GB-003: receivers of net messages that known backdoors use. Flagged with the handler's
// behaviour: dangerous → critical, bans/kicks the sender (honeypot) → low.
import { asString } from '../analysis/values.js';
import { CONSOLE_SINKS, EXEC_SINKS, PRIVILEGE_SINKS } from '../analysis/api.js';
import { eventsByNetHandler, isSanction, makeFinding, sanctions, isNetReceive } from './support.js';
import { sharedViews } from './shared.js';
import type { CallEvent } from '../analysis/types.js';
import type { Finding, Rule } from './types.js';

export const rule: Rule = {
  meta: {
    id: 'backdoor_netname',
    category: 'backdoor',
    severity: 'high',
    techniques: ['GB-003'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Known backdoor net message',
        description:
          'The addon listens to a net message name used by known backdoors (for example Sandbox_ArmDupe, nostrip, memeDoor). Backdoor panels send their commands through these names.',
        recommendation:
          'Remove the addon unless it is an anti-exploit tool that bans whoever sends this message.',
      },
      fr: {
        title: 'Message réseau de porte dérobée connue',
        description:
          "L'addon écoute un nom de message net utilisé par des portes dérobées connues (par exemple Sandbox_ArmDupe, nostrip, memeDoor). Les panneaux de contrôle envoient leurs ordres par ces noms.",
        recommendation:
          "Supprimez l'addon, sauf s'il s'agit d'un outil anti-exploit qui bannit l'expéditeur de ce message.",
      },
    },
  },
  check(context) {
    const { analysis, intel } = context;
    const out: Finding[] = [];
    const generic = (intel as { genericBackdoorNetNames?: ReadonlySet<string> })
      .genericBackdoorNetNames;
    // Events of each handler function (one function may serve many names, as honeypots do).
    // Built on the first known name only: most addons register none.
    let byFunction: Map<string, CallEvent[]> | undefined;
    for (const ev of sharedViews(context).callsWhere(isNetReceive)) {
      const name = ev.args[0] ? asString(ev.args[0]) : undefined;
      if (!name || !intel.backdoorNetNames.has(name.toLowerCase())) continue;
      // The handler's events: those whose ctx has a net.Receive frame for this name and file.
      const handler = ev.args[1];
      const inside =
        handler?.k === 'fn'
          ? ((byFunction ??= eventsByNetHandler(analysis)).get(
              `${ev.file}:${handler.node.offset}`,
            ) ?? [])
          : [];
      const honeypot = sanctions(inside);
      // (A ban through the admin mod's console command is the sanction, not a danger, under
      // each name the function serves.)
      const dangerous = inside.find(
        (e) =>
          !isSanction(e) &&
          (e.api in EXEC_SINKS || CONSOLE_SINKS.has(e.api) || PRIVILEGE_SINKS.has(e.api)),
      );
      const isGeneric = generic?.has(name.toLowerCase()) ?? false;
      if (honeypot && !dangerous) {
        out.push(
          makeFinding(rule, analysis, {
            severity: 'low',
            confidence: 0.3,
            pattern: `net.Receive(${JSON.stringify(name)}) honeypot`,
            file: ev.file,
            line: ev.line,
            verdictClass: 'informational',
          }),
        );
        continue;
      }
      if (!dangerous && isGeneric) continue;
      out.push(
        makeFinding(rule, analysis, {
          severity: dangerous ? 'critical' : 'medium',
          confidence: dangerous ? 0.95 : 0.6,
          pattern: `net.Receive(${JSON.stringify(name)})`,
          file: ev.file,
          line: ev.line,
          decoded: ev.decoded,
          chain: dangerous
            ? [
                {
                  role: 'source',
                  label: `known backdoor net message ${name}`,
                  file_path: ev.file,
                  line_number: ev.line,
                },
                {
                  role: 'sink',
                  label: dangerous.api,
                  file_path: dangerous.file,
                  line_number: dangerous.line,
                },
              ]
            : [],
          techniques: dangerous ? ['GB-003', 'GB-002'] : ['GB-003'],
          verdictClass: dangerous ? 'backdoor' : 'suspicious',
        }),
      );
    }
    return out;
  },
};
