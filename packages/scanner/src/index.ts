// Public interface of the scanner: an archive (bytes, a .zip/.gma path or a folder) in, a
// ScanResult out. A pure library: no HTTP, no database, never executes what it reads.
//
// Pipeline: archive → analysis → rules → score → report, under one time budget.
import type { Language, ScannedFile, ScanResult, ScanType } from '@sentinelle/contracts';
import { analyzeAddon, isLuaEntry, type AddonAnalysis } from './analysis/index.js';
import { countLineBreaks, countLines, lineBreaks } from './lines.js';
import {
  readArchive,
  ScanCancelledError,
  type ArchiveContents,
  type ArchiveEntry,
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
export { SCAN_THREAD_RESOURCE_LIMITS } from './scanThread.js';

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
/**
 * Most Lua lines analysed per addon. The analysis and several rules cost per line, so a small
 * zip of newline bombs (32 MiB of `\n` per entry) would otherwise take minutes and gigabytes.
 * The largest real addons measured (TTT2, wire) hold ~150 000 lines: this is 13× that.
 */
export const MAX_LUA_LINES = 2_000_000;
/** Name recorded in `limits_reached` when Lua past MAX_LUA_LINES was left out. */
export const LUA_LINES_LIMIT = 'maxLuaLines';
/** Name recorded in `limits_reached` when the analysis failed on some files, which were left out. */
export const ANALYSIS_ERROR_LIMIT = 'analysis_error';

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

/**
 * The entries as the analysis gets them: the addon's line budget goes to the files with the
 * fewest lines first, so padding the archive with huge files cannot push ordinary code out;
 * only the largest files are cut, at a line end. Returns whether anything was cut; the
 * archive's own entries stay whole.
 */
/** A Lua entry of capLuaLines, at its index, with its line count (first a bound on it). */
interface LuaLines {
  entry: ArchiveEntry;
  index: number;
  lines: number;
}
const mostLinesFirst = (a: LuaLines, b: LuaLines): number => b.lines - a.lines;
const fewestLinesFirst = (a: LuaLines, b: LuaLines): number => a.lines - b.lines;

function capLuaLines(
  entries: ArchiveEntry[],
  maxLines: number,
): { entries: ArchiveEntry[]; cut: boolean } {
  // A file has at most one line more than it has bytes: most addons are decided unread.
  let most = 0;
  for (const entry of entries) if (isLuaEntry(entry)) most += entry.bytes!.length + 1;
  if (most <= maxLines) return { entries, cut: false };
  // (Loops and comparators made once: see SharedViews.callsWhere in rules/shared.ts.)
  const lua: LuaLines[] = [];
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    if (isLuaEntry(entry)) lua.push({ entry, index, lines: entry.bytes!.length + 1 });
  }
  // Exact counts replace that bound, largest files first (they tighten it most), until the
  // addon is known to fit: an addon a few times over the bound is decided with about half
  // its bytes read. Only an addon over the cap needs every count.
  for (const l of [...lua].sort(mostLinesFirst)) {
    const lines = countLineBreaks(l.entry.bytes!, maxLines + 1) + 1;
    most -= l.lines - lines;
    l.lines = lines;
    if (most <= maxLines) return { entries, cut: false };
  }
  const capped: Array<ArchiveEntry | undefined> = [...entries];
  let remaining = maxLines;
  for (const l of lua.sort(fewestLinesFirst)) {
    if (l.lines <= remaining) {
      remaining -= l.lines;
      continue;
    }
    // Keep the first `remaining` lines, cut at the break that ends the last of them; with
    // none left the file is not analysed at all (listed as skipped).
    if (remaining > 0) {
      const { at } = lineBreaks(l.entry.bytes!, remaining);
      capped[l.index] = { ...l.entry, bytes: l.entry.bytes!.subarray(0, at) };
    } else {
      capped[l.index] = undefined;
    }
    remaining = 0;
  }
  return { entries: capped.filter((e) => e !== undefined), cut: true };
}

/**
 * The analysis, kept from failing the whole scan when it breaks on some hostile file (a
 * RangeError deep in a regex, say): the files it cannot survive are found one by one and
 * left out, the rest analysed as usual. Cancellation still propagates.
 */
function analyseSurvivingFiles(
  entries: ArchiveEntry[],
  options: Parameters<typeof analyzeAddon>[1],
): { analysis: AddonAnalysis; failedPaths: string[] } {
  try {
    return { analysis: analyzeAddon(entries, options), failedPaths: [] };
  } catch (err) {
    if (isCancellation(err)) throw err;
  }
  const failed = new Set<string>();
  for (const entry of entries) {
    if (!isLuaEntry(entry)) continue;
    try {
      analyzeAddon([entry], options);
    } catch (err) {
      if (isCancellation(err)) throw err;
      failed.add(entry.path);
    }
  }
  // If the failure was not in one file alone, this throws again: nothing more can be done.
  const analysis = analyzeAddon(
    entries.filter((e) => !failed.has(e.path)),
    options,
  );
  return { analysis, failedPaths: [...failed] };
}

/** One row per listed entry: realm and parse status from the analysis when it reached the file. */
function filesTable(
  contents: ArchiveContents,
  analysis: AddonAnalysis,
  failedPaths: readonly string[],
): ScannedFile[] {
  const analysed = new Map(analysis.files.map((f) => [f.path, f]));
  const failed = new Set(failedPaths);
  const files: ScannedFile[] = [];
  for (const entry of contents.entries) {
    const kind = LISTED_KINDS[entry.kind];
    if (!kind) continue;
    const file = analysed.get(entry.path);
    files.push({
      path: entry.path,
      kind,
      realm: file?.realm ?? null,
      lines: file ? file.lineCount : entry.bytes ? countLines(entry.bytes) : 0,
      parse: file?.parse ?? (failed.has(entry.path) ? 'failed' : 'skipped'),
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
  const { entries, cut: linesCut } = capLuaLines(contents.entries, MAX_LUA_LINES);
  const { analysis, failedPaths } = analyseSurvivingFiles(entries, {
    intel,
    isCancelled: budget.shouldStop,
  });
  budget.check();

  options.onPhase?.('rules');
  const findings = runRules(analysis, intel);
  const files = filesTable(contents, analysis, failedPaths);
  let lines = 0;
  for (const f of analysis.files) lines += f.lineCount;
  budget.check();

  options.onPhase?.('report');
  const limitsReached = [...contents.limitsReached];
  if (linesCut) limitsReached.push(LUA_LINES_LIMIT);
  if (failedPaths.length > 0) limitsReached.push(ANALYSIS_ERROR_LIMIT);
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
