// Chooses the recommendations of a result: one general set per list band (spec §4: ≥80 safe,
// 50–79 warning, <50 critical) and specific advice triggered by what was found.
import type { Language, OverallVerdict, Recommendation, Threat } from '@sentinelle/contracts';
import { listBand } from '@sentinelle/contracts';

type Texts = Record<Language, string>;

const BAND_SETS: Record<ReturnType<typeof listBand>, Array<[key: string, text: Texts]>> = {
  safe: [
    [
      'safe_install',
      {
        en: 'No significant threat was found. You can install this addon; keep it up to date and get it from its official source.',
        fr: "Aucune menace importante n'a été trouvée. Vous pouvez installer cet addon ; gardez-le à jour et récupérez-le depuis sa source officielle.",
      },
    ],
    [
      'safe_rescan_updates',
      {
        en: 'Scan each new version before updating: re-uploads of popular addons are how most backdoors spread.',
        fr: 'Analysez chaque nouvelle version avant de mettre à jour : les ré-uploads d’addons populaires sont la principale voie des backdoors.',
      },
    ],
  ],
  warning: [
    [
      'warning_review',
      {
        en: 'Review every finding below before installing. Install only if each one is explained by what the addon is meant to do.',
        fr: "Examinez chaque élément ci-dessous avant l'installation. N'installez que si chacun s'explique par ce que l'addon est censé faire.",
      },
    ],
    [
      'warning_test_server',
      {
        en: 'Try the addon on a test server first, never on your production server.',
        fr: "Essayez d'abord l'addon sur un serveur de test, jamais sur votre serveur de production.",
      },
    ],
    [
      'warning_official_source',
      {
        en: "Compare it with the version from the author's official page; unexplained differences are a warning sign.",
        fr: "Comparez-le à la version de la page officielle de l'auteur ; toute différence inexpliquée est un signal d'alerte.",
      },
    ],
  ],
  critical: [
    [
      'critical_do_not_install',
      {
        en: 'Do not install this addon.',
        fr: "N'installez pas cet addon.",
      },
    ],
    [
      'critical_if_installed',
      {
        en: 'If it is already on a server, stop the server, remove the addon, and follow the advice below before restarting.',
        fr: "S'il est déjà sur un serveur, arrêtez le serveur, supprimez l'addon et suivez les conseils ci-dessous avant de redémarrer.",
      },
    ],
  ],
};

function has(threats: readonly Threat[], ...ids: string[]): boolean {
  for (const t of threats) for (const id of t.techniques) if (ids.includes(id)) return true;
  return false;
}
const harmful = (t: Threat) =>
  t.verdict_class === 'backdoor' || t.verdict_class === 'remote_loader';

/** Hosts named in the evidence of harmful threats, for the firewall advice. */
export function hostsInThreats(threats: readonly Threat[]): string[] {
  const hosts = new Set<string>();
  const url = /\b(?:https?|wss?):\/\/([a-z0-9.-]+\.[a-z0-9-]+|\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?/gi;
  for (const t of threats) {
    if (!harmful(t) && t.verdict_class !== 'suspicious') continue;
    for (const text of [
      t.code_snippet,
      t.decoded ?? '',
      t.pattern,
      ...t.chain.map((s) => s.label),
    ]) {
      for (const m of text.matchAll(url)) hosts.add(m[1]!.toLowerCase());
    }
  }
  return [...hosts].sort();
}

function recommendation(key: string, text: Texts, language: Language): Recommendation {
  return { key, text: text[language], localized: { en: text.en, fr: text.fr } };
}

export function buildRecommendations(
  score: number,
  verdict: OverallVerdict,
  threats: readonly Threat[],
  language: Language,
  limitsReached: readonly string[] = [],
): Recommendation[] {
  const out = BAND_SETS[listBand(score)].map(([key, text]) => recommendation(key, text, language));
  const add = (key: string, text: Texts) => out.push(recommendation(key, text, language));
  if (limitsReached.length > 0) {
    add('incomplete_scan', {
      en: `The scan stopped early (${limitsReached.join(', ')}): part of the addon was not analysed, so this result cannot vouch for it. Split the archive or remove large assets and scan again.`,
      fr: `L'analyse s'est arrêtée avant la fin (${limitsReached.join(', ')}) : une partie de l'addon n'a pas été analysée, ce résultat ne peut donc pas s'en porter garant. Découpez l'archive ou retirez les gros fichiers et relancez l'analyse.`,
    });
  }
  const malicious = verdict === 'malicious';
  const codeExecution = threats.some((t) => harmful(t) && t.severity === 'critical');

  if (malicious) {
    add('remove_addon', {
      en: 'Remove the addon completely (its folder under addons/ and any copy in lua/ or gamemodes/), then restart the server.',
      fr: "Supprimez complètement l'addon (son dossier dans addons/ et toute copie dans lua/ ou gamemodes/), puis redémarrez le serveur.",
    });
  }
  if (codeExecution || has(threats, 'GB-015', 'GB-010', 'GB-023')) {
    add('rotate_passwords', {
      en: 'Change rcon_password and sv_password (and any database or API keys in your config): code that ran on the server may have read them.',
      fr: 'Changez rcon_password et sv_password (et les clés de base de données ou d’API de votre configuration) : du code exécuté sur le serveur a pu les lire.',
    });
  }
  if (malicious || has(threats, 'GB-006', 'GB-007', 'GB-008', 'GB-019')) {
    add('audit_admin_groups', {
      en: 'Audit your admin groups (ULX/ULib users.txt and groups.txt, SAM, FAdmin, ServerGuard): remove anyone you did not add, and check your ban list for removed bans.',
      fr: "Vérifiez vos groupes d'administration (users.txt et groups.txt de ULX/ULib, SAM, FAdmin, ServerGuard) : retirez quiconque n'a pas été ajouté par vous et contrôlez votre liste de bannissements.",
    });
  }
  if (malicious || has(threats, 'GB-009', 'GB-014', 'GB-025')) {
    add('check_data_persistence', {
      en: 'Check data/ and the SQLite database (sv.db) for planted code: look for Lua in .txt/.dat files (for example data/xeon/xeon.dat) and unknown tables, and delete them.',
      fr: 'Cherchez du code déposé dans data/ et dans la base SQLite (sv.db) : du Lua dans des fichiers .txt/.dat (par exemple data/xeon/xeon.dat) et des tables inconnues, puis supprimez-les.',
    });
  }
  const hosts = hostsInThreats(threats);
  if (hosts.length > 0 || has(threats, 'GB-001', 'GB-016', 'GB-017', 'GB-018', 'GB-020')) {
    const list = hosts.slice(0, 10).join(', ');
    add('block_c2_domains', {
      en: list
        ? `Block these hosts in your server firewall and DNS: ${list}.`
        : 'Block the remote hosts this addon contacts in your server firewall and DNS.',
      fr: list
        ? `Bloquez ces hôtes dans le pare-feu et le DNS du serveur : ${list}.`
        : 'Bloquez dans le pare-feu et le DNS du serveur les hôtes distants que contacte cet addon.',
    });
  }
  if (has(threats, 'GB-011')) {
    add('review_binary_modules', {
      en: 'Delete binary modules (lua/bin/gmsv_*/gmcl_*) you cannot match to an official release; native code cannot be checked by this scan.',
      fr: "Supprimez les modules binaires (lua/bin/gmsv_*/gmcl_*) que vous ne pouvez pas rattacher à une version officielle : ce code natif ne peut pas être vérifié par l'analyse.",
    });
  }
  if (threats.some((t) => t.verdict_class === 'vulnerable')) {
    add('update_vulnerable_addons', {
      en: 'Update the addons with vulnerable network receivers to their latest version, or remove them; until then an anti-exploit addon can block those messages.',
      fr: 'Mettez à jour les addons dont les récepteurs réseau sont vulnérables, ou retirez-les ; en attendant, un addon anti-exploit peut bloquer ces messages.',
    });
  }
  return out;
}
