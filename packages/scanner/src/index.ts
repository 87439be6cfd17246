// Public interface of the scanner: an archive (bytes, a .zip/.gma path or a folder) in, a
// ScanResult out. A pure library: no HTTP, no database, never executes what it reads.
//
// Pipeline: archive → analysis → rules → score → report, under one time budget.
import type { Language, ScannedFile, ScanResult, ScanType } from '@sentinelle/contracts';
import { analyzeAddon, type AddonAnalysis } from './analysis/index.js';
import {
  readArchive,
  ScanCancelledError,
  type ArchiveContents,
  type EntryKind,
} from './archive/index.js';
import { INTEL_VERSION, loadThreatIntel } from './intel/index.js';
import { ALL_RULES, runRules } from './rules/index.js';
import { buildScanResult } from './report/index.js';

export {
  UnusableArchiveError,
  ScanCancelledError,
  DEFAULT_ARCHIVE_LIMITS,
  type ArchiveLimits,
} from './archive/index.js';
export { loadThreatIntel, INTEL_VERSION, type ThreatIntel } from './intel/index.js';
export { scoreThreats, type ScoreBreakdown } from './score/index.js';
export { buildScanResult, renderSarif, renderTextReport, type SarifLog } from './report/index.js';

export type ScanPhase = 'reading' | 'analysing' | 'rules' | 'report';

export interface ScanOptions {
  scanId?: string;
  filename?: string;
  language?: Language;
  scanType?: ScanType;
  /** Checked between files; when it answers true the scan stops with a ScanCancelledError. */
  isCancelled?: () => boolean;
  /**
   * Wall-clock budget of one scan in ms (default 60 000). Past it the scan stops reading and
   * analysing and returns what it has, with `time_budget` in `limits_reached`.
   */
  timeBudgetMs?: number;
  /** Told when the scan enters each phase (the CLI prints it for large inputs). */
  onPhase?: (phase: ScanPhase) => void;
}

/** The time budget ran out while the archive was still being read: nothing could be judged. */
export class ScanTimeoutError extends Error {
  readonly code = 'time_budget';
  constructor(budgetMs: number) {
    super(
      `the scan did not finish reading the archive within its ${Math.round(budgetMs / 1000)} s budget`,
    );
    this.name = 'ScanTimeoutError';
  }
}

export const ENGINE_VERSION = '0.3.0';
/** Rules and intel travel together in `rules_version`. */
export const RULES_VERSION = `${ENGINE_VERSION}+intel.${INTEL_VERSION}`;
export const DEFAULT_TIME_BUDGET_MS = 60_000;
/** Name recorded in `limits_reached` when the time budget stopped the scan. */
export const TIME_BUDGET_LIMIT = 'time_budget';

/** Layers signal cancellation with their own error class; they all share this name. */
function isCancellation(err: unknown): boolean {
  return err instanceof Error && err.name === 'ScanCancelledError';
}

/** Stops the scan: the caller's cancellation wins over the time budget. */
class ScanBudget {
  private readonly deadline: number;
  exhausted = false;
  constructor(
    budgetMs: number,
    private readonly cancelled: () => boolean,
  ) {
    this.deadline = performance.now() + budgetMs;
  }
  /** For the layers: true when they should stop, for either reason. */
  readonly shouldStop = (): boolean => {
    if (this.cancelled()) return true;
    if (performance.now() > this.deadline) this.exhausted = true;
    return this.exhausted;
  };
  /** Throws when the caller cancelled. */
  check(): void {
    if (this.cancelled()) throw new ScanCancelledError();
  }
}

// ---- pipeline -----------------------------------------------------------------------------

/** What the files table shows; plain assets and other text are only counted in file_count. */
const LISTED_KINDS: Partial<Record<EntryKind, ScannedFile['kind']>> = {
  lua: 'lua',
  lua_in_asset: 'lua_in_asset',
  binary_module: 'binary_module',
  map: 'map',
};

function countLines(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let lines = 1;
  for (const b of bytes) if (b === 10) lines++;
  return lines;
}

/** One row per listed entry: realm and parse status from the analysis when it reached the file. */
function filesTable(contents: ArchiveContents, analysis: AddonAnalysis): ScannedFile[] {
  const analysed = new Map(analysis.files.map((f) => [f.path, f]));
  const files: ScannedFile[] = [];
  for (const entry of contents.entries) {
    const kind = LISTED_KINDS[entry.kind];
    if (!kind) continue;
    const file = analysed.get(entry.path);
    files.push({
      path: entry.path,
      kind,
      realm: file?.realm ?? null,
      lines: file ? file.lines.length : entry.bytes ? countLines(entry.bytes) : 0,
      parse: file?.parse ?? 'skipped',
      ...(entry.sha256 ? { sha256: entry.sha256 } : {}),
    });
  }
  return files;
}

export async function scanArchive(
  input: Uint8Array | string,
  options: ScanOptions = {},
): Promise<ScanResult> {
  const started = performance.now();
  const language = options.language ?? 'en';
  const budgetMs = options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS;
  const budget = new ScanBudget(budgetMs, options.isCancelled ?? (() => false));
  budget.check();

  options.onPhase?.('reading');
  let contents: ArchiveContents;
  try {
    contents = await readArchive(input, {}, { isCancelled: budget.shouldStop });
  } catch (err) {
    if (!isCancellation(err)) throw err;
    budget.check();
    throw new ScanTimeoutError(budgetMs);
  }
  budget.check();

  options.onPhase?.('analysing');
  const intel = loadThreatIntel();
  // Past the deadline the analysis stops between files and hands back what it covered.
  const analysis = analyzeAddon(contents.entries, { intel, isCancelled: budget.shouldStop });
  budget.check();

  options.onPhase?.('rules');
  const findings = runRules(analysis, intel);
  const files = filesTable(contents, analysis);
  const lines = analysis.files.reduce((sum, f) => sum + f.lines.length, 0);
  budget.check();

  options.onPhase?.('report');
  const limitsReached = [...contents.limitsReached];
  if (budget.exhausted || analysis.cancelled) limitsReached.push(TIME_BUDGET_LIMIT);
  return buildScanResult({
    scanId: options.scanId ?? contents.sha256.slice(0, 16),
    filename: options.filename ?? 'archive.zip',
    language,
    scanType: options.scanType ?? 'standard',
    findings,
    rules: ALL_RULES.map((rule) => rule.meta),
    archiveFindings: contents.findings,
    files,
    fileCount: contents.fileCount,
    totalLinesScanned: lines,
    archiveSha256: contents.sha256,
    limitsReached,
    scanTimeSeconds: (performance.now() - started) / 1000,
    engineVersion: ENGINE_VERSION,
    rulesVersion: RULES_VERSION,
  });
}
