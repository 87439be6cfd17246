// The downloadable plain-text report ({name}_result.txt), in French or English, written from
// a ScanResult alone so the server can render it again in the other language later.
import type { Language, OverallVerdict, ScanResult, Severity, Threat } from '@sentinelle/contracts';
import { resultBand } from '@sentinelle/contracts';

const LABELS = {
  en: {
    heading: 'SENTINELLE — ADDON SECURITY REPORT',
    file: 'File',
    scanId: 'Scan id',
    score: 'Security score',
    verdict: 'Verdict',
    files: 'Files analysed',
    luaFiles: 'Lua files',
    lines: 'Lines scanned',
    threats: 'Threats found',
    time: 'Analysis time',
    engine: 'Engine / rules',
    sha: 'Archive SHA-256',
    limits: 'Limits reached (archive only partly read)',
    threatsHeading: 'THREATS',
    none: 'No threat found.',
    pattern: 'Pattern',
    category: 'Category',
    kind: 'Kind',
    confidence: 'Confidence',
    techniques: 'Techniques',
    locations: 'Locations',
    chain: 'Chain',
    code: 'Code',
    decoded: 'Decoded',
    advice: 'What to do',
    recommendations: 'RECOMMENDATIONS',
    footer:
      'Sentinelle reads the code without ever running it. A score is a guide, not a guarantee.',
    line: 'line',
    severity: { critical: 'CRITICAL', high: 'HIGH', medium: 'MEDIUM', low: 'LOW' } satisfies Record<
      Severity,
      string
    >,
    verdicts: {
      malicious: 'malicious',
      suspicious: 'suspicious',
      vulnerable: 'vulnerable',
      clean: 'clean',
    } satisfies Record<OverallVerdict, string>,
    bands: { safe: 'safe', attention: 'attention', dangerous: 'dangerous', critical: 'critical' },
    classes: {
      backdoor: 'backdoor',
      remote_loader: 'remote loader',
      vulnerable: 'vulnerable addon',
      suspicious: 'suspicious',
      informational: 'informational',
    },
    roles: {
      source: 'source',
      through: 'through',
      sink: 'sink',
      guard: 'guard',
      trigger: 'trigger',
    },
  },
  fr: {
    heading: "SENTINELLE — RAPPORT DE SÉCURITÉ D'ADDON",
    file: 'Fichier',
    scanId: "Identifiant d'analyse",
    score: 'Score de sécurité',
    verdict: 'Verdict',
    files: 'Fichiers analysés',
    luaFiles: 'Fichiers Lua',
    lines: 'Lignes analysées',
    threats: 'Menaces trouvées',
    time: "Durée de l'analyse",
    engine: 'Moteur / règles',
    sha: "SHA-256 de l'archive",
    limits: 'Limites atteintes (archive lue en partie seulement)',
    threatsHeading: 'MENACES',
    none: 'Aucune menace trouvée.',
    pattern: 'Motif',
    category: 'Catégorie',
    kind: 'Nature',
    confidence: 'Confiance',
    techniques: 'Techniques',
    locations: 'Emplacements',
    chain: 'Chaîne',
    code: 'Code',
    decoded: 'Décodé',
    advice: 'Que faire',
    recommendations: 'RECOMMANDATIONS',
    footer:
      "Sentinelle lit le code sans jamais l'exécuter. Un score est un repère, pas une garantie.",
    line: 'ligne',
    severity: {
      critical: 'CRITIQUE',
      high: 'ÉLEVÉE',
      medium: 'MOYENNE',
      low: 'FAIBLE',
    } satisfies Record<Severity, string>,
    verdicts: {
      malicious: 'malveillant',
      suspicious: 'suspect',
      vulnerable: 'vulnérable',
      clean: 'sain',
    } satisfies Record<OverallVerdict, string>,
    bands: { safe: 'sûr', attention: 'attention', dangerous: 'dangereux', critical: 'critique' },
    classes: {
      backdoor: 'backdoor',
      remote_loader: 'chargeur distant',
      vulnerable: 'addon vulnérable',
      suspicious: 'suspect',
      informational: 'information',
    },
    roles: {
      source: 'source',
      through: 'via',
      sink: 'puits',
      guard: 'garde',
      trigger: 'déclencheur',
    },
  },
} as const;

const RULE = '='.repeat(72);
const THIN = '-'.repeat(72);

/** French typography puts a space before the colon. */
function colon(lang: Language): string {
  return lang === 'fr' ? '\u00a0: ' : ': ';
}

function indent(text: string, prefix: string): string {
  return text
    .split(/\r?\n/)
    .map((l) => prefix + l)
    .join('\n');
}

function renderThreat(t: Threat, index: number, lang: Language): string {
  const L = LABELS[lang];
  const c = colon(lang);
  const texts = t.localized[lang];
  const out = [
    `[${index}] ${L.severity[t.severity]} — ${texts.title}`,
    `    ${L.pattern}${c}${t.pattern}  (${t.pattern_key})`,
    `    ${L.category}${c}${t.category} · ${L.kind}${c}${L.classes[t.verdict_class]} · ${L.confidence}${c}${Math.round(t.confidence * 100)} %`,
  ];
  if (t.techniques.length > 0) out.push(`    ${L.techniques}${c}${t.techniques.join(', ')}`);
  out.push(indent(texts.description, '    '));
  out.push(`    ${L.locations}${c.trimEnd()}`);
  for (const loc of t.locations) {
    out.push(
      `      - ${loc.file_path}${loc.line_number > 0 ? ` (${L.line} ${loc.line_number})` : ''}${loc.context ? `: ${loc.context}` : ''}`,
    );
  }
  if (t.chain.length > 0) {
    out.push(`    ${L.chain}${c.trimEnd()}`);
    for (const step of t.chain) {
      out.push(
        `      ${L.roles[step.role]}: ${step.label} — ${step.file_path}:${step.line_number}`,
      );
    }
  }
  if (t.code_snippet) out.push(`    ${L.code}${c.trimEnd()}`, indent(t.code_snippet, '      | '));
  if (t.decoded) out.push(`    ${L.decoded}${c.trimEnd()}`, indent(t.decoded, '      | '));
  out.push(`    ${L.advice}${c}${texts.recommendation}`);
  return out.join('\n');
}

export function renderTextReport(result: ScanResult, lang: Language): string {
  const L = LABELS[lang];
  const c = colon(lang);
  const head = [
    RULE,
    L.heading,
    RULE,
    `${L.file}${c}${result.filename}`,
    `${L.scanId}${c}${result.scan_id}`,
    `${L.score}${c}${result.score}/100 (${L.bands[resultBand(result.score)]})`,
    `${L.verdict}${c}${L.verdicts[result.verdict]}`,
    `${L.files}${c}${result.file_count} · ${L.luaFiles}${c}${result.lua_file_count} · ${L.lines}${c}${result.total_lines_scanned}`,
    `${L.threats}${c}${result.threats.length}`,
    `${L.time}${c}${result.scan_time_seconds.toFixed(2)} s`,
    `${L.engine}${c}${result.engine_version} / ${result.rules_version}`,
    `${L.sha}${c}${result.archive_sha256}`,
  ];
  if (result.limits_reached.length > 0)
    head.push(`${L.limits}${c}${result.limits_reached.join(', ')}`);
  const body = [THIN, L.threatsHeading, THIN];
  if (result.threats.length === 0) body.push(L.none);
  result.threats.forEach((t, i) => body.push(renderThreat(t, i + 1, lang), ''));
  const recs = [
    THIN,
    L.recommendations,
    THIN,
    ...result.recommendations.map((r) => `- ${r.localized[lang]}`),
  ];
  return [...head, '', ...body, '', ...recs, '', RULE, L.footer, ''].join('\n');
}
