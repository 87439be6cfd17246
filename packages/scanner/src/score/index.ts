// The security score (0–100) and the overall verdict, computed deterministically from the
// threats of a scan. The formula and its reasons are written up in docs/scoring.md.
import type { OverallVerdict, Severity, Threat } from '@sentinelle/contracts';

/** What the score reads of a threat; a contracts `Threat` fits as is. */
export type ScoredThreat = Pick<
  Threat,
  'pattern_key' | 'severity' | 'confidence' | 'category' | 'verdict_class' | 'techniques' | 'chain'
>;

/** Points a finding of each severity removes at confidence 1 (threat catalogue §7.3). */
export const SEVERITY_WEIGHT: Record<Severity, number> = {
  critical: 30,
  high: 15,
  medium: 7,
  low: 3,
};

/**
 * Vulnerable-but-legitimate code and informational findings weigh lightly: the owner should
 * update or look, not panic. Everything else counts in full.
 */
export const VERDICT_CLASS_FACTOR: Record<ScoredThreat['verdict_class'], number> = {
  backdoor: 1,
  remote_loader: 1,
  suspicious: 1,
  vulnerable: 0.5,
  informational: 0.25,
};

/** The n-th repeat (0-based) of a severity counts 1/(1 + REPEAT_DECAY·n). */
export const REPEAT_DECAY = 0.2;
/** Confidence from which a rule's finding counts as confirmed for the caps below. */
export const CONFIRMED_CONFIDENCE = 0.7;
/** A confirmed RCE chain, credential theft or file stealer keeps the score at or below this. */
export const CRITICAL_OVERRIDE_MAX = 19;
/** A malicious verdict keeps the score in the results screen's "critical" band (< 40). */
export const MALICIOUS_MAX = 39;
/** A scan stopped by a limit (time, size, entries) never reads as safe (list band ≥ 80). */
export const INCOMPLETE_SCAN_MAX = 79;
/** Obfuscation alone never takes the score below this: paid addons obfuscate too. */
export const OBFUSCATION_ONLY_MIN = 50;

const RCE_TECHNIQUES = ['GB-001', 'GB-002', 'GB-005', 'GB-006'];
const THEFT_TECHNIQUES = ['GB-015', 'GB-018'];
const OBFUSCATION_CATEGORIES = new Set<string>(['obfuscation', 'advanced_obfuscation']);
const HARMFUL_CLASSES = new Set<string>(['backdoor', 'remote_loader']);

export interface ScoreBreakdown {
  score: number;
  verdict: OverallVerdict;
  /** Sum of the weighted, decayed contributions before clamping and caps. */
  penalty: number;
  /** Which rule of docs/scoring.md bounded the score, if any. */
  bound: 'critical_override' | 'malicious' | 'obfuscation_only' | null;
  /** Per threat (same order as the input): the points it removed. */
  contributions: number[];
}

/** A confirmed remote-code-execution chain, credential theft or file stealer. */
export function isCriticalOverride(t: ScoredThreat): boolean {
  if (t.confidence < CONFIRMED_CONFIDENCE) return false;
  if (t.verdict_class === 'vulnerable' || t.verdict_class === 'informational') return false;
  if (HARMFUL_CLASSES.has(t.verdict_class) && t.severity === 'critical') return true;
  const hasSink = t.chain.some((step) => step.role === 'sink');
  if (hasSink && t.techniques.some((id) => RCE_TECHNIQUES.includes(id))) return true;
  return (
    t.techniques.some((id) => THEFT_TECHNIQUES.includes(id)) &&
    (t.severity === 'critical' || t.severity === 'high')
  );
}

function isMaliciousEvidence(t: ScoredThreat): boolean {
  return (
    HARMFUL_CLASSES.has(t.verdict_class) &&
    (t.severity === 'critical' || t.severity === 'high') &&
    t.confidence >= 0.5
  );
}

function verdictOf(threats: readonly ScoredThreat[], override: boolean): OverallVerdict {
  if (override || threats.some(isMaliciousEvidence)) return 'malicious';
  if (
    threats.some(
      (t) =>
        t.verdict_class !== 'vulnerable' &&
        t.verdict_class !== 'informational' &&
        t.severity !== 'low',
    )
  ) {
    return 'suspicious';
  }
  if (threats.some((t) => t.verdict_class === 'vulnerable')) return 'vulnerable';
  return 'clean';
}

/** Score and verdict of a set of threats; the same input always gives the same output. */
export function scoreThreats(threats: readonly ScoredThreat[]): ScoreBreakdown {
  const base = threats.map(
    (t) =>
      SEVERITY_WEIGHT[t.severity] *
      clamp(t.confidence, 0, 1) *
      VERDICT_CLASS_FACTOR[t.verdict_class],
  );
  // The strongest finding of a severity counts fully; later ones decay. Ties are broken by
  // rule id and input position so the order of rules never changes the score.
  const order = threats
    .map((t, i) => i)
    .sort(
      (a, b) =>
        base[b]! - base[a]! ||
        threats[a]!.pattern_key.localeCompare(threats[b]!.pattern_key) ||
        a - b,
    );
  const seen: Record<Severity, number> = { critical: 0, high: 0, medium: 0, low: 0 };
  const contributions = new Array<number>(threats.length).fill(0);
  for (const i of order) {
    const severity = threats[i]!.severity;
    contributions[i] = base[i]! / (1 + REPEAT_DECAY * seen[severity]);
    seen[severity] += 1;
  }
  const penalty = contributions.reduce((sum, c) => sum + c, 0);
  let score = clamp(Math.round(100 - penalty), 0, 100);
  let bound: ScoreBreakdown['bound'] = null;

  const override = threats.some(isCriticalOverride);
  const verdict = verdictOf(threats, override);
  const obfuscationOnly =
    threats.some((t) => OBFUSCATION_CATEGORIES.has(t.category)) &&
    threats.every(
      (t) => OBFUSCATION_CATEGORIES.has(t.category) || t.verdict_class === 'informational',
    );

  if (override && score > CRITICAL_OVERRIDE_MAX) {
    score = CRITICAL_OVERRIDE_MAX;
    bound = 'critical_override';
  } else if (verdict === 'malicious' && score > MALICIOUS_MAX) {
    score = MALICIOUS_MAX;
    bound = 'malicious';
  } else if (obfuscationOnly && score < OBFUSCATION_ONLY_MIN) {
    score = OBFUSCATION_ONLY_MIN;
    bound = 'obfuscation_only';
  }
  return { score, verdict, penalty, bound, contributions };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
