// Scans and their results (spec §3), plus the extras our scanner reports: per-threat
// technique ids, decoded payloads, source → sink chains, confidence and verdict class.
import { z } from 'zod';

export const LANGUAGES = ['en', 'fr'] as const;
export const languageSchema = z.enum(LANGUAGES);
export type Language = z.infer<typeof languageSchema>;

export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export const severitySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof severitySchema>;

/** Higher number = more severe; used for `--fail-on` and for sorting. */
export const SEVERITY_RANK: Record<Severity, number> = { low: 1, medium: 2, high: 3, critical: 4 };

export const THREAT_CATEGORIES = [
  'code_execution',
  'network_communication',
  'file_system',
  'privilege_escalation',
  'obfuscation',
  'persistence',
  'data_exfiltration',
  'environment_manipulation',
  'memory_corruption',
  'social_engineering',
  'cryptographic',
  'anti_analysis',
  'advanced_obfuscation',
  'backdoor',
  'network',
  'fileManipulation',
  'consoleCommand',
  'hookManipulation',
  'semantic',
  'behavioral',
  'anomaly',
  'intent',
  'other',
  'uncategorized',
] as const;
export const threatCategorySchema = z.enum(THREAT_CATEGORIES);
export type ThreatCategory = z.infer<typeof threatCategorySchema>;

export const SCAN_TYPES = ['standard', 'ia'] as const;
export const scanTypeSchema = z.enum(SCAN_TYPES);
export type ScanType = z.infer<typeof scanTypeSchema>;

export const SCAN_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export const scanStatusSchema = z.enum(SCAN_STATUSES);
export type ScanStatus = z.infer<typeof scanStatusSchema>;

/** Catalogue technique ids, GB-001 … GB-032. */
export const techniqueIdSchema = z.string().regex(/^GB-\d{3}$/);

/**
 * What kind of problem a threat is (threat catalogue §7.3 point 11): users need to tell a
 * backdoor from a vulnerable-but-legitimate addon.
 */
export const VERDICT_CLASSES = [
  'backdoor',
  'remote_loader',
  'vulnerable',
  'suspicious',
  'informational',
] as const;
export const verdictClassSchema = z.enum(VERDICT_CLASSES);
export type VerdictClass = z.infer<typeof verdictClassSchema>;

export const threatLocationSchema = z.object({
  file_path: z.string(),
  line_number: z.number().int().nonnegative(),
  context: z.string(),
});
export type ThreatLocation = z.infer<typeof threatLocationSchema>;

/** One step of a source → sink chain, e.g. "HTTP body" at line 4 → "RunString" at line 5. */
export const chainStepSchema = z.object({
  role: z.enum(['source', 'through', 'sink', 'guard', 'trigger']),
  label: z.string(),
  file_path: z.string(),
  line_number: z.number().int().nonnegative(),
});
export type ChainStep = z.infer<typeof chainStepSchema>;

export const localizedTextSchema = z.object({ en: z.string(), fr: z.string() });
export type LocalizedText = z.infer<typeof localizedTextSchema>;

export const threatSchema = z.object({
  /** Short human name of what matched, e.g. "RunString(net.ReadString())". */
  pattern: z.string(),
  /** Stable rule id (the spec's pattern_key, e.g. `runstring`). */
  pattern_key: z.string(),
  /** Title, description and recommendation in the language the result was asked in. */
  title: z.string(),
  description: z.string(),
  recommendation: z.string(),
  /** The same three texts in both languages, so a language switch needs no new request. */
  localized: z.object({
    en: z.object({ title: z.string(), description: z.string(), recommendation: z.string() }),
    fr: z.object({ title: z.string(), description: z.string(), recommendation: z.string() }),
  }),
  category: threatCategorySchema,
  severity: severitySchema,
  /** 0–1: how sure the rule is that this is what it says. */
  confidence: z.number().min(0).max(1),
  verdict_class: verdictClassSchema,
  techniques: z.array(techniqueIdSchema),
  code_snippet: z.string(),
  /** The de-obfuscated code or string, when the evidence was encoded. */
  decoded: z.string().optional(),
  chain: z.array(chainStepSchema).default([]),
  locations: z.array(threatLocationSchema),
});
export type Threat = z.infer<typeof threatSchema>;

export const REALMS = ['server', 'client', 'shared'] as const;
export const realmSchema = z.enum(REALMS);
export type Realm = z.infer<typeof realmSchema>;

export const FILE_KINDS = [
  'lua',
  'lua_in_asset',
  'binary_module',
  'map',
  'archive',
  'other_dialect',
  'asset',
] as const;
export const scannedFileSchema = z.object({
  path: z.string(),
  kind: z.enum(FILE_KINDS),
  realm: realmSchema.nullable(),
  lines: z.number().int().nonnegative(),
  /**
   * ok/recovered/failed: parsed into a tree (recovered: with syntax errors). skimmed: read at
   * token level only, because it mentions nothing that can run code, reach the network or
   * change ranks, nor any function of the addon that does. skipped: not reached (limits).
   */
  parse: z.enum(['ok', 'recovered', 'failed', 'skimmed', 'skipped']),
  sha256: z.string().optional(),
});
export type ScannedFile = z.infer<typeof scannedFileSchema>;

export const recommendationSchema = z.object({
  key: z.string(),
  text: z.string(),
  localized: localizedTextSchema,
});
export type Recommendation = z.infer<typeof recommendationSchema>;

export const OVERALL_VERDICTS = ['malicious', 'suspicious', 'vulnerable', 'clean'] as const;
export const overallVerdictSchema = z.enum(OVERALL_VERDICTS);
export type OverallVerdict = z.infer<typeof overallVerdictSchema>;

export const scanResultSchema = z.object({
  scan_id: z.string(),
  filename: z.string(),
  score: z.number().int().min(0).max(100),
  verdict: overallVerdictSchema,
  threats: z.array(threatSchema),
  file_count: z.number().int().nonnegative(),
  lua_file_count: z.number().int().nonnegative(),
  total_lines_scanned: z.number().int().nonnegative(),
  scan_time_seconds: z.number().nonnegative(),
  scan_type: scanTypeSchema,
  recommendations: z.array(recommendationSchema),
  engine_version: z.string(),
  rules_version: z.string(),
  archive_sha256: z.string(),
  files: z.array(scannedFileSchema),
  /** Set when the archive could only be partly read (a limit was reached). */
  limits_reached: z.array(z.string()).default([]),
});
export type ScanResult = z.infer<typeof scanResultSchema>;

export const scanListItemSchema = z.object({
  scan_id: z.string(),
  filename: z.string(),
  /** Empty string means an anonymous scan. */
  steam_id: z.string(),
  score: z.number().int().min(0).max(100).nullable(),
  scan_type: scanTypeSchema,
  status: scanStatusSchema,
  upload_date: z.string(),
  scan_date: z.string().nullable(),
  file_size: z.number().int().nonnegative(),
  threat_count: z.number().int().nonnegative(),
  expires_at: z.string(),
});
export type ScanListItem = z.infer<typeof scanListItemSchema>;

export const scanStatsSchema = z.object({
  total_scans: z.number().int().nonnegative(),
  authenticated_scans: z.number().int().nonnegative(),
  anonymous_scans: z.number().int().nonnegative(),
});
export type ScanStats = z.infer<typeof scanStatsSchema>;
