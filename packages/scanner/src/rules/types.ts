// The shape every rule shares (ESLint-style: `meta` + `check`), and the finding a rule
// reports before scoring and localisation turn it into a contracts `Threat`.
import type { ChainStep, Severity, ThreatCategory, VerdictClass } from '@sentinelle/contracts';

export interface RuleText {
  title: string;
  description: string;
  recommendation: string;
}

export interface RuleMeta {
  /** Stable id = the spec's pattern_key (e.g. `runstring`, `superadmin`). */
  id: string;
  category: ThreatCategory;
  /** Default severity; a finding may raise or lower it with a reason. */
  severity: Severity;
  /** Catalogue techniques the rule recognises. */
  techniques: string[];
  verdictClass: VerdictClass;
  text: { en: RuleText; fr: RuleText };
}

export interface Finding {
  ruleId: string;
  severity: Severity;
  /** 0–1. */
  confidence: number;
  /** Short name of what matched, shown as the threat's `pattern`. */
  pattern: string;
  file: string;
  line: number;
  /** Original source line(s) around the match. */
  snippet: string;
  /** Decoded payload or de-obfuscated call, when encoded. */
  decoded?: string;
  chain: ChainStep[];
  /** Techniques this finding matches (defaults to the rule's). */
  techniques?: string[];
  verdictClass?: VerdictClass;
  /** Extra locations of the same finding (e.g. the loader and the hidden payload). */
  related?: Array<{ file: string; line: number; context: string }>;
}

/** What a rule's `check` reads: the analysis of the whole addon and the threat intel. */
export interface RuleContext {
  analysis: import('../analysis/types.js').AddonAnalysis;
  intel: import('../intel/types.js').ThreatIntel;
  /** Views several rules share, built once per run (absent when one rule runs alone). */
  shared?: import('./shared.js').SharedViews;
}

export interface Rule {
  meta: RuleMeta;
  check(context: RuleContext): Finding[];
}
