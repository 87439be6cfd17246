// Turns rule findings (and archive-level problems) into the contracts' Threat entities:
// localised texts from the rule's meta, evidence, chain and locations.
import type { ChainStep, Language, Severity, Threat } from '@sentinelle/contracts';
import { SEVERITY_RANK } from '@sentinelle/contracts';
import type { ArchiveFinding, ArchiveFindingKind } from '../archive/types.js';
import type { Finding, RuleMeta, RuleText } from '../rules/types.js';

/** Longest snippet kept per threat: one-line obfuscated files would otherwise fill the JSON. */
export const MAX_SNIPPET_CHARS = 2000;
/** Longest location context (one line of code). */
export const MAX_CONTEXT_CHARS = 300;

const TECHNIQUE_ID = /^GB-\d{3}$/;

/** Meta used when a finding names a rule the report does not know (never silently dropped). */
function unknownRuleMeta(id: string): RuleMeta {
  const en: RuleText = {
    title: `Finding of rule ${id}`,
    description: 'A rule reported this code; its description is not available in this version.',
    recommendation: 'Review this code before installing the addon.',
  };
  const fr: RuleText = {
    title: `Résultat de la règle ${id}`,
    description:
      "Une règle a signalé ce code ; sa description n'est pas disponible dans cette version.",
    recommendation: "Examinez ce code avant d'installer l'addon.",
  };
  return {
    id,
    category: 'uncategorized',
    severity: 'medium',
    techniques: [],
    verdictClass: 'suspicious',
    text: { en, fr },
  };
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  return truncate(line.trim(), MAX_CONTEXT_CHARS);
}

function localise(
  meta: RuleMeta,
  language: Language,
): Pick<Threat, 'title' | 'description' | 'recommendation' | 'localized'> {
  const text = meta.text[language];
  return {
    title: text.title,
    description: text.description,
    recommendation: text.recommendation,
    localized: { en: { ...meta.text.en }, fr: { ...meta.text.fr } },
  };
}

/** A chain step as reported: its line a whole number, never negative. (Made once, not per scan.) */
const reportedStep = (step: ChainStep): ChainStep => ({
  ...step,
  line_number: Math.max(0, Math.trunc(step.line_number) || 0),
});

export function findingToThreat(
  finding: Finding,
  meta: RuleMeta | undefined,
  language: Language,
): Threat {
  const rule = meta ?? unknownRuleMeta(finding.ruleId);
  const techniques = [...new Set(finding.techniques ?? rule.techniques)].filter((id) =>
    TECHNIQUE_ID.test(id),
  );
  const line = Math.max(0, Math.trunc(finding.line) || 0);
  const locations: Threat['locations'] = [
    { file_path: finding.file, line_number: line, context: firstLine(finding.snippet) },
  ];
  for (const extra of finding.related ?? []) {
    locations.push({
      file_path: extra.file,
      line_number: Math.max(0, Math.trunc(extra.line) || 0),
      context: truncate(extra.context.trim(), MAX_CONTEXT_CHARS),
    });
  }
  const threat: Threat = {
    pattern: truncate(finding.pattern, 200),
    pattern_key: rule.id,
    ...localise(rule, language),
    category: rule.category,
    severity: finding.severity,
    confidence: Math.min(
      1,
      Math.max(0, Number.isFinite(finding.confidence) ? finding.confidence : 0),
    ),
    verdict_class: finding.verdictClass ?? rule.verdictClass,
    techniques,
    code_snippet: truncate(finding.snippet, MAX_SNIPPET_CHARS),
    chain: finding.chain.map(reportedStep),
    locations,
  };
  if (finding.decoded !== undefined && finding.decoded !== '')
    threat.decoded = truncate(finding.decoded, MAX_SNIPPET_CHARS);
  return threat;
}

/** Most severe first, then most confident, then by place, so reports read top-down. */
export function compareThreats(a: Threat, b: Threat): number {
  return (
    SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
    b.confidence - a.confidence ||
    (a.locations[0]?.file_path ?? '').localeCompare(b.locations[0]?.file_path ?? '') ||
    (a.locations[0]?.line_number ?? 0) - (b.locations[0]?.line_number ?? 0) ||
    a.pattern_key.localeCompare(b.pattern_key)
  );
}

/**
 * One threat per rule and place: two rules may see the same call through different routes
 * (e.g. the literal and the decoded form); the strongest report of a rule at a line wins.
 */
export function dedupeThreats(threats: Threat[]): Threat[] {
  const best = new Map<string, Threat>();
  for (const t of threats) {
    const loc = t.locations[0];
    const key = `${t.pattern_key}\u0000${loc?.file_path ?? ''}\u0000${loc?.line_number ?? 0}\u0000${t.pattern}`;
    const prev = best.get(key);
    if (!prev || compareThreats(t, prev) < 0) best.set(key, t);
  }
  return [...best.values()];
}

/** Archive-level problems (DESIGN §2: path traversal names are themselves a finding). */
const ARCHIVE_RULES: Record<
  ArchiveFindingKind,
  { meta: RuleMeta; severity: Severity; confidence: number } | null
> = {
  path_traversal: archiveRule('archive_path_traversal', 'file_system', 'high', 'suspicious', 0.8, {
    en: [
      'Archive entry escapes its folder',
      'An entry name climbs out of the archive folder (../). Extracted carelessly, it would overwrite files elsewhere on the server.',
      'Do not extract this archive by hand; the addon was packed by an attacker or a broken tool.',
    ],
    fr: [
      "Entrée d'archive hors de son dossier",
      "Le nom d'une entrée remonte hors du dossier de l'archive (../). Extraite sans précaution, elle écraserait d'autres fichiers du serveur.",
      "N'extrayez pas cette archive à la main : l'addon a été empaqueté par un attaquant ou un outil défectueux.",
    ],
  }),
  absolute_path: archiveRule('archive_absolute_path', 'file_system', 'high', 'suspicious', 0.7, {
    en: [
      'Archive entry with an absolute path',
      'An entry name is an absolute path; extraction could write outside the addon folder.',
      'Do not extract this archive by hand; ask the author for a clean package.',
    ],
    fr: [
      "Entrée d'archive à chemin absolu",
      "Le nom d'une entrée est un chemin absolu ; l'extraction pourrait écrire hors du dossier de l'addon.",
      "N'extrayez pas cette archive à la main ; demandez un paquet propre à l'auteur.",
    ],
  }),
  symlink: archiveRule('archive_symlink', 'file_system', 'medium', 'suspicious', 0.6, {
    en: [
      'Symbolic link in the archive',
      'The archive holds a symbolic link; extracted, it could point at files outside the addon.',
      'Remove the link before installing and check where it pointed.',
    ],
    fr: [
      "Lien symbolique dans l'archive",
      "L'archive contient un lien symbolique ; extrait, il pourrait viser des fichiers hors de l'addon.",
      "Supprimez le lien avant l'installation et vérifiez sa cible.",
    ],
  }),
  encrypted_entry: archiveRule(
    'archive_encrypted_entry',
    'anti_analysis',
    'medium',
    'suspicious',
    0.6,
    {
      en: [
        'Encrypted archive entry',
        'An entry is password-protected, so its content could not be scanned.',
        'Ask the author for an unencrypted archive and scan it again.',
      ],
      fr: [
        "Entrée d'archive chiffrée",
        "Une entrée est protégée par mot de passe : son contenu n'a pas pu être analysé.",
        "Demandez une archive non chiffrée à l'auteur et relancez l'analyse.",
      ],
    },
  ),
  zip_bomb: archiveRule('archive_zip_bomb', 'anomaly', 'high', 'suspicious', 0.8, {
    en: [
      'Decompression bomb',
      'An entry inflates far beyond any real addon file; it is built to exhaust disk or memory.',
      'Do not extract this archive on a server.',
    ],
    fr: [
      'Bombe de décompression',
      "Une entrée se décompresse bien au-delà de tout vrai fichier d'addon ; elle vise à épuiser le disque ou la mémoire.",
      "N'extrayez pas cette archive sur un serveur.",
    ],
  }),
  overlapping_entries: archiveRule(
    'archive_overlapping_entries',
    'anomaly',
    'medium',
    'suspicious',
    0.6,
    {
      en: [
        'Overlapping archive entries',
        'Several entries share the same bytes; tools may then disagree on what the archive contains.',
        'Extract with a standard tool only after checking the listed files.',
      ],
      fr: [
        "Entrées d'archive superposées",
        'Plusieurs entrées partagent les mêmes octets ; les outils peuvent alors voir des contenus différents.',
        'Vérifiez les fichiers listés avant toute extraction.',
      ],
    },
  ),
  corrupt_entry: archiveRule('archive_corrupt_entry', 'anomaly', 'low', 'informational', 0.5, {
    en: [
      'Unreadable archive entry',
      'An entry could not be read; its content was not scanned.',
      'Re-download the addon and scan it again.',
    ],
    fr: [
      "Entrée d'archive illisible",
      "Une entrée n'a pas pu être lue ; son contenu n'a pas été analysé.",
      "Téléchargez l'addon à nouveau et relancez l'analyse.",
    ],
  }),
  nested_too_deep: archiveRule('archive_nested_too_deep', 'anomaly', 'low', 'informational', 0.5, {
    en: [
      'Archives nested too deep',
      'Archives inside archives go deeper than the scanner opens; the innermost ones were not scanned.',
      'Unpack the inner archives and scan them separately.',
    ],
    fr: [
      'Archives trop imbriquées',
      "Des archives imbriquées dépassent la profondeur que l'analyseur ouvre ; les plus internes n'ont pas été analysées.",
      'Extrayez les archives internes et analysez-les séparément.',
    ],
  }),
  // Limits are reported once, in `limits_reached`, not as threats.
  limit_reached: null,
};

function archiveRule(
  id: string,
  category: RuleMeta['category'],
  severity: Severity,
  verdictClass: RuleMeta['verdictClass'],
  confidence: number,
  text: Record<Language, [string, string, string]>,
): { meta: RuleMeta; severity: Severity; confidence: number } {
  const toText = ([title, description, recommendation]: [string, string, string]): RuleText => ({
    title,
    description,
    recommendation,
  });
  return {
    meta: {
      id,
      category,
      severity,
      techniques: [],
      verdictClass,
      text: { en: toText(text.en), fr: toText(text.fr) },
    },
    severity,
    confidence,
  };
}

/** The metas of the archive-level rules, for SARIF and rule listings. */
export const ARCHIVE_RULE_METAS: RuleMeta[] = Object.values(ARCHIVE_RULES).flatMap((r) =>
  r ? [r.meta] : [],
);

export function archiveFindingToThreat(finding: ArchiveFinding, language: Language): Threat | null {
  const rule = ARCHIVE_RULES[finding.kind];
  if (!rule) return null;
  return findingToThreat(
    {
      ruleId: rule.meta.id,
      severity: rule.severity,
      confidence: rule.confidence,
      pattern: finding.path,
      file: finding.path,
      line: 0,
      snippet: finding.detail,
      chain: [],
    },
    rule.meta,
    language,
  );
}
