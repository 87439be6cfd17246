// GB-032: anti-analysis: re-infection locks, checks that RunString was not detoured, random
// long delays before acting, spoofed chunk names.
import { asNumber, asString } from '../analysis/values.js';
import { makeFinding } from './support.js';
import { sharedViews, TEXT_MARKS } from './shared.js';
import { firstLineMatching } from './textSearch.js';
import type { Finding, Rule } from './types.js';

const LOCK = /_G\s*[.[][^=]*==\s*["']lock["']|_G\.\w+\s*=\s*["']lock["']/;

export const rule: Rule = {
  meta: {
    id: 'anti_analysis',
    category: 'anti_analysis',
    severity: 'high',
    techniques: ['GB-032'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Tricks against analysis',
        description:
          'The code checks whether RunString was hooked by a security tool, locks itself against running twice, or waits a random long delay before acting: behaviour meant to evade detection.',
        recommendation: 'Remove the addon.',
      },
      fr: {
        title: "Techniques contre l'analyse",
        description:
          "Le code vérifie si RunString a été intercepté par un outil de sécurité, se verrouille pour ne pas s'exécuter deux fois, ou attend un long délai aléatoire avant d'agir : un comportement fait pour échapper à la détection.",
        recommendation: "Supprimez l'addon.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const shared = sharedViews(context);
    const out: Finding[] = [];
    const randomLines = new Set(
      analysis.calls
        .filter((c) => c.api === 'math.random' && (asNumber(c.args[1] ?? { k: 'nil' }) ?? 0) >= 60)
        .map((c) => `${c.file}:${c.line}`),
    );
    for (const ev of analysis.calls) {
      if (
        ev.api === 'debug.getinfo' &&
        ev.args[0]?.k === 'api' &&
        /^(RunString|CompileString|http\.Fetch|http\.Post|HTTP|net\.Receive)$/.test(ev.args[0].name)
      ) {
        // On a client it is an anti-cheat's check: cheats detour the client's RunString. A
        // backdoor checks the server's, for a security addon's hooks.
        const client = ev.realm === 'client';
        out.push(
          makeFinding(rule, analysis, {
            ...(client ? { severity: 'low' as const, verdictClass: 'informational' as const } : {}),
            confidence: client ? 0.3 : 0.85,
            pattern: `debug.getinfo(${ev.args[0].name}) detour check${client ? ' on a client' : ''}`,
            file: ev.file,
            line: ev.line,
          }),
        );
      }
      if (ev.api === 'timer.Simple' && ev.args[0]?.k === 'unk') {
        // math.random delays are recorded as a call just before; look for them on the same line.
        if (randomLines.has(`${ev.file}:${ev.line}`))
          out.push(
            makeFinding(rule, analysis, {
              severity: 'medium',
              confidence: 0.5,
              pattern: 'random long delay before acting',
              file: ev.file,
              line: ev.line,
            }),
          );
      }
      if (/^(RunString|RunStringEx|CompileString)$/.test(ev.api)) {
        const chunk = asString(ev.args[1] ?? { k: 'nil' });
        if (
          chunk !== undefined &&
          /^(:|\?|ERROR|\[C\]|=\[C\]|CON|)$/.test(chunk) &&
          ev.args[0]?.k !== 'str'
        ) {
          out.push(
            makeFinding(rule, analysis, {
              severity: 'medium',
              confidence: 0.5,
              pattern: `spoofed chunk name ${JSON.stringify(chunk)}`,
              file: ev.file,
              line: ev.line,
            }),
          );
        }
      }
    }
    // Re-infection lock: `if _G.x == "lock" then return end` / `_G.x = "lock"`.
    for (const f of analysis.files) {
      // Both shapes hold a quoted `lock` (TEXT_MARKS.lock), and start with `_G`: the pattern is
      // tried only in files the run's one pass over the text marked, where `_G` occurs.
      const marked = (shared.textMarks(f) & TEXT_MARKS.lock) !== 0;
      const idx = marked ? firstLineMatching(f, LOCK, { startsWith: '_G' }) : -1;
      if (idx >= 0)
        out.push(
          makeFinding(rule, analysis, {
            severity: 'medium',
            confidence: 0.6,
            pattern: 're-infection lock',
            file: f.path,
            line: idx + 1,
          }),
        );
    }
    return out;
  },
};
