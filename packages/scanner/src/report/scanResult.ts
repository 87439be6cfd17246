// Assembles the ScanResult of the contracts from what the pipeline produced: threats,
// score, verdict, recommendations, versions and the per-file table.
import type { Language, ScanResult, ScannedFile, ScanType, Threat } from '@sentinelle/contracts';
import type { ArchiveFinding } from '../archive/types.js';
import type { Finding, RuleMeta } from '../rules/types.js';
import { INCOMPLETE_SCAN_MAX, scoreThreats } from '../score/index.js';
import { buildRecommendations } from './recommendations.js';
import {
  archiveFindingToThreat,
  compareThreats,
  dedupeThreats,
  findingToThreat,
} from './threats.js';

export interface ScanResultInput {
  scanId: string;
  filename: string;
  language: Language;
  scanType: ScanType;
  /** Rule findings, turned into threats with the matching rule meta. */
  findings: readonly Finding[];
  /** Metas of every rule that may have reported (unknown ids still become threats). */
  rules: Iterable<RuleMeta>;
  /** Problems of the archive itself (path traversal, bombs…). */
  archiveFindings?: readonly ArchiveFinding[];
  /** Threats already in contracts form (e.g. from the first engine). */
  extraThreats?: readonly Threat[];
  files: ScannedFile[];
  fileCount: number;
  totalLinesScanned: number;
  archiveSha256: string;
  limitsReached: readonly string[];
  scanTimeSeconds: number;
  engineVersion: string;
  rulesVersion: string;
}

const isLuaFile = (f: { kind: string }): boolean => f.kind === 'lua' || f.kind === 'lua_in_asset';

export function buildScanResult(input: ScanResultInput): ScanResult {
  const metas = new Map<string, RuleMeta>();
  for (const meta of input.rules) metas.set(meta.id, meta);
  const threats = dedupeThreats([
    ...input.findings.map((f) => findingToThreat(f, metas.get(f.ruleId), input.language)),
    ...(input.archiveFindings ?? []).flatMap(
      (f) => archiveFindingToThreat(f, input.language) ?? [],
    ),
    ...(input.extraThreats ?? []),
  ]).sort(compareThreats);
  const scored = scoreThreats(threats);
  const limitsReached = [...new Set(input.limitsReached)];
  // What was not read may hold the backdoor: an incomplete scan is never called safe.
  const score =
    limitsReached.length > 0 ? Math.min(scored.score, INCOMPLETE_SCAN_MAX) : scored.score;
  const verdict = scored.verdict;
  return {
    scan_id: input.scanId,
    filename: input.filename,
    score,
    verdict,
    threats,
    file_count: input.fileCount,
    lua_file_count: input.files.filter(isLuaFile).length,
    total_lines_scanned: input.totalLinesScanned,
    scan_time_seconds: Math.max(0, Math.round(input.scanTimeSeconds * 1000) / 1000),
    scan_type: input.scanType,
    recommendations: buildRecommendations(score, verdict, threats, input.language, limitsReached),
    engine_version: input.engineVersion,
    rules_version: input.rulesVersion,
    archive_sha256: input.archiveSha256,
    files: input.files,
    limits_reached: limitsReached,
  };
}
