// GB-020: detouring HTTP functions or RunString to block rivals, scanning net.Receivers for
// other backdoors, or probing for security addons.
import { asString } from '../analysis/values.js';
import { makeFinding, isWebRequest } from './support.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

const DETOUR_TARGETS =
  /^(http\.Fetch|http\.Post|HTTP|RunString|RunStringEx|CompileString|net\.Receive|net\.Start|concommand\.Add|hook\.Add|hook\.GetTable|concommand\.GetTable|debug\.getinfo|file\.Read|jit\.util\.funck)$/;
/** Replacements that change what the hook or command tables show: hiding entries from scanners. */
const TABLE_VIEWS = /^(hook\.GetTable|concommand\.GetTable)$/;
const RIVALS =
  /kpanel|lkpanel|gvacdoor|cipher-panel|xvacdoor|g-hub|gblk|smart-overwrite|stage[12]\.php|backdoor\.php|evo\.php|backdoor_key|gpanel|ghax|anatik|xendoor|exodosium/gi;
// Short names stand alone (`gac/`, `cac_config`): as bare substrings they match `pac3_cache`.
const SECURITY_ADDONS =
  /say_no_to_exploits|backdoor.?shield|glorified|prometheus|gextension|(?<![a-z])nova|(?<![a-z])(?:snte|bs|gac|cac|hac)(?![a-z])/i;
const SECURITY_ADDON_NAMES = new RegExp(SECURITY_ADDONS.source, 'gi');

const isCodeRunner = (api: string): boolean => /^(RunString|CompileString|RunStringEx)$/.test(api);

export const rule: Rule = {
  meta: {
    id: 'security_tampering',
    category: 'hookManipulation',
    severity: 'high',
    techniques: ['GB-020'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Core functions detoured or security tools probed',
        description:
          "The addon replaces core functions (HTTP, RunString, net) or inspects other addons' receivers and security tools. Backdoors do this to block rival panels and hide from scanners.",
        recommendation: 'Unless this is a security addon you installed on purpose, remove it.',
      },
      fr: {
        title: 'Fonctions du moteur détournées ou outils de sécurité sondés',
        description:
          "L'addon remplace des fonctions du moteur (HTTP, RunString, net) ou inspecte les récepteurs d'autres addons et les outils de sécurité. Les portes dérobées le font pour bloquer les panneaux concurrents et échapper aux scanners.",
        recommendation:
          "Sauf s'il s'agit d'un addon de sécurité installé volontairement, supprimez-le.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    // The findings for replaced hook or command tables (see the end).
    const tableViews = new Set<Finding>();
    for (const ov of analysis.overrides) {
      if (!DETOUR_TARGETS.test(ov.target)) continue;
      const finding = makeFinding(rule, analysis, {
        severity: 'low',
        confidence: 0.35,
        pattern: `${ov.target} replaced`,
        file: ov.file,
        line: ov.line,
        decoded: ov.decoded,
        verdictClass: 'suspicious',
      });
      out.push(finding);
      if (TABLE_VIEWS.test(ov.target)) tableViews.add(finding);
    }
    const shared = sharedViews(context);
    const httpFiles = new Set<string>();
    for (const c of shared.callsWhere(isWebRequest)) httpFiles.add(c.file);
    for (const ev of analysis.calls) {
      if (ev.api === 'jit.util.funck' || ev.api === 'jit.util.funcinfo') {
        const reports = httpFiles.has(ev.file);
        // Every addon's net receivers searched for their constants, and the answer sent away:
        // a panel listing which servers run rival backdoors it can use (GB-020). A security
        // addon inspecting receivers keeps what it finds.
        const receivers =
          reports &&
          analysis.files.some((f) => f.path === ev.file && f.text.includes('net.Receivers'));
        out.push(
          makeFinding(rule, analysis, {
            severity: receivers ? 'high' : reports ? 'medium' : 'low',
            confidence: receivers ? 0.7 : reports ? 0.5 : 0.3,
            pattern: `${ev.api} on ${receivers ? 'every net receiver, reported away' : 'other functions'}`,
            file: ev.file,
            line: ev.line,
            verdictClass: receivers ? 'backdoor' : 'suspicious',
          }),
        );
      } else if (
        ev.api === 'file.Exists' &&
        SECURITY_ADDONS.test(asString(ev.args[0] ?? { k: 'nil' }) ?? '')
      ) {
        out.push(
          makeFinding(rule, analysis, {
            severity: 'low',
            confidence: 0.35,
            pattern: `probe for ${asString(ev.args[0]!)}`,
            file: ev.file,
            line: ev.line,
            verdictClass: 'informational',
          }),
        );
      }
    }
    // Detours plus a list of rival panel domains, or plus remote execution in the same file: the
    // shape of a panel's C2 client fighting other backdoors (real firewalls have neither).
    // Only files that already have a finding are searched for rival names (a whole-text scan).
    const rivalFile = new Map<string, boolean>();
    const namesRivals = (path: string): boolean => {
      let known = rivalFile.get(path);
      if (known === undefined) {
        known = analysis.files.some(
          (f) => f.path === path && (f.text.match(RIVALS) ?? []).length >= 3,
        );
        rivalFile.set(path, known);
      }
      return known;
    };
    const remoteExecFiles = new Set<string>();
    for (const c of shared.callsWhere(isCodeRunner))
      if (c.via === 'callback') remoteExecFiles.add(c.file);
    // A replaced hook or command table in a file that names security addons (three or more):
    // hiding its own hooks from scanners while it goes after theirs.
    const namesSecurityAddons = (path: string): boolean =>
      analysis.files.some(
        (f) =>
          f.path === path &&
          new Set((f.text.match(SECURITY_ADDON_NAMES) ?? []).map((n) => n.toLowerCase())).size >= 3,
      );
    for (const f of out)
      if (
        remoteExecFiles.has(f.file) ||
        namesRivals(f.file) ||
        (tableViews.has(f) && namesSecurityAddons(f.file))
      ) {
        f.severity = 'high';
        f.confidence = 0.75;
        f.verdictClass = 'backdoor';
      }
    return out;
  },
};
