// Public interface of the scanner: an archive (bytes, a .zip/.gma path or a folder) in, a
// ScanResult out. A pure library: no HTTP, no database, never executes what it reads.
//
// Pipeline: archive → analysis → rules → score → report, under a time budget. Until the
// archive, analysis and rules layers land, an interim reader and a textual stager check stand
// in for them behind the same stages.
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import yauzl from 'yauzl';
import type { Language, ScannedFile, ScanResult, ScanType, Threat } from '@sentinelle/contracts';
import { UnusableArchiveError } from './archive/types.js';
import { INTEL_VERSION } from './intel/index.js';
import { buildScanResult } from './report/index.js';

export { UnusableArchiveError } from './archive/types.js';
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

export class ScanCancelledError extends Error {
  constructor() {
    super('scan cancelled');
    this.name = 'ScanCancelledError';
  }
}

export const ENGINE_VERSION = '0.2.0';
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

// ---- interim archive layer -------------------------------------------------------------

interface InterimContents {
  luaFiles: Map<string, string>;
  fileCount: number;
  sha256: string;
  limitsReached: string[];
}

async function readZipLua(bytes: Uint8Array, budget: ScanBudget): Promise<InterimContents> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      { lazyEntries: true, validateEntrySizes: true },
      (err, z) =>
        err || !z
          ? reject(new UnusableArchiveError('not_zip', err?.message ?? 'not a zip'))
          : resolve(z),
    ),
  );
  const luaFiles = new Map<string, string>();
  const limitsReached: string[] = [];
  let fileCount = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('error', (e: Error) => reject(new UnusableArchiveError('corrupt', e.message)));
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      if (budget.shouldStop()) {
        zip.close();
        return resolve();
      }
      if (entry.fileName.endsWith('/')) return zip.readEntry();
      fileCount++;
      if (!entry.fileName.toLowerCase().endsWith('.lua')) return zip.readEntry();
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream)
          return reject(new UnusableArchiveError('corrupt', err?.message ?? 'unreadable'));
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('error', (e: Error) => reject(new UnusableArchiveError('corrupt', e.message)));
        stream.on('end', () => {
          luaFiles.set(entry.fileName, Buffer.concat(chunks).toString('latin1'));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return { luaFiles, fileCount, sha256: sha256(bytes), limitsReached };
}

async function readFolderLua(root: string, budget: ScanBudget): Promise<InterimContents> {
  const luaFiles = new Map<string, string>();
  const hash = createHash('sha256');
  let fileCount = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const entry of entries) {
      if (budget.shouldStop()) return;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) {
        fileCount++;
        const path = relative(root, full).split(sep).join('/');
        const bytes = await readFile(full);
        hash.update(path).update(bytes);
        if (path.toLowerCase().endsWith('.lua')) luaFiles.set(path, bytes.toString('latin1'));
      }
    }
  };
  await walk(root);
  if (fileCount === 0) throw new UnusableArchiveError('empty', 'the folder holds no file');
  return { luaFiles, fileCount, sha256: hash.digest('hex'), limitsReached: [] };
}

// ---- interim analysis + rules: a textual look for stagers -------------------------------

const SINK = /\b(RunString|RunStringEx|CompileString|loadstring)\s*\(/;
const NET_SOURCE = /net\.Read(String|Data)\s*\(/;
const HTTP_SOURCE = /\bhttp\.(Fetch|Post)\s*\(|\bHTTP\s*\(/;

function stagerThreats(path: string, text: string, language: Language): Threat[] {
  const lines = text.split(/\r?\n/);
  const threats: Threat[] = [];
  const httpSeen = HTTP_SOURCE.test(text);
  lines.forEach((line, i) => {
    if (!SINK.test(line)) return;
    const fromNet = NET_SOURCE.test(line);
    if (!fromNet && !httpSeen) return;
    const en = {
      title: fromNet ? 'Network message executed as code' : 'Remote code downloaded and executed',
      description: fromNet
        ? 'A string sent by a client over the network reaches a code-execution function.'
        : 'Code fetched over HTTP reaches a code-execution function: whoever controls the server can run anything.',
      recommendation:
        'Do not install this addon; remove it and check your server for other changes.',
    };
    const fr = {
      title: fromNet
        ? 'Message réseau exécuté comme du code'
        : 'Code distant téléchargé puis exécuté',
      description: fromNet
        ? "Une chaîne envoyée par un client sur le réseau atteint une fonction d'exécution de code."
        : "Du code récupéré en HTTP atteint une fonction d'exécution de code : celui qui contrôle le serveur distant peut tout faire.",
      recommendation: "N'installez pas cet addon ; supprimez-le et vérifiez votre serveur.",
    };
    const texts = language === 'fr' ? fr : en;
    threats.push({
      pattern: line.trim().slice(0, 120),
      pattern_key: 'runstring',
      ...texts,
      localized: { en, fr },
      category: 'code_execution',
      severity: 'critical',
      confidence: 0.8,
      verdict_class: 'backdoor',
      techniques: [fromNet ? 'GB-002' : 'GB-001'],
      code_snippet: line.trim(),
      chain: [],
      locations: [{ file_path: path, line_number: i + 1, context: line.trim() }],
    });
  });
  return threats;
}

// ---- pipeline -----------------------------------------------------------------------------

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function readInput(input: Uint8Array | string, budget: ScanBudget): Promise<InterimContents> {
  if (typeof input !== 'string') return readZipLua(input, budget);
  const info = await stat(input).catch(() => {
    throw new UnusableArchiveError('not_zip', `cannot read ${input}`);
  });
  if (info.isDirectory()) return readFolderLua(input, budget);
  return readZipLua(await readFile(input), budget);
}

export async function scanArchive(
  input: Uint8Array | string,
  options: ScanOptions = {},
): Promise<ScanResult> {
  const started = performance.now();
  const language = options.language ?? 'en';
  const budget = new ScanBudget(
    options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS,
    options.isCancelled ?? (() => false),
  );
  budget.check();

  options.onPhase?.('reading');
  let contents: InterimContents;
  try {
    contents = await readInput(input, budget);
  } catch (err) {
    if (isCancellation(err)) throw new ScanCancelledError();
    throw err;
  }
  budget.check();

  options.onPhase?.('analysing');
  const threats: Threat[] = [];
  const files: ScannedFile[] = [];
  let lines = 0;
  for (const [path, text] of contents.luaFiles) {
    budget.check();
    const fileLines = text.split('\n').length;
    files.push({ path, kind: 'lua', realm: null, lines: fileLines, parse: 'skipped' });
    if (budget.shouldStop()) continue;
    lines += fileLines;
    threats.push(...stagerThreats(path, text, language));
  }
  budget.check();

  options.onPhase?.('report');
  const limitsReached = [...contents.limitsReached];
  if (budget.exhausted) limitsReached.push(TIME_BUDGET_LIMIT);
  return buildScanResult({
    scanId: options.scanId ?? contents.sha256.slice(0, 16),
    filename: options.filename ?? 'archive.zip',
    language,
    scanType: options.scanType ?? 'standard',
    findings: [],
    rules: [],
    extraThreats: threats,
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
