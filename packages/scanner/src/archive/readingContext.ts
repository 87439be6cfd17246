// The state of one readArchive call: resolved limits, running counters, and what was found
// so far. Every reader (zip, gma, folder) shares it so that limits hold across nesting.
import type { ArchiveEntry, ArchiveFinding, ArchiveFindingKind, ArchiveLimits } from './types.js';

export type ResolvedLimits = Required<ArchiveLimits>;

const MiB = 1024 * 1024;

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxArchiveBytes: 1024 * MiB,
  maxEntries: 100_000,
  maxTotalInflatedBytes: 2048 * MiB,
  maxTextEntryBytes: 64 * MiB,
  maxNestingDepth: 3,
};

const DEFAULT_NESTED_ARCHIVE_BYTES = 256 * MiB;
const DEFAULT_KEPT_TEXT_BYTES = 256 * MiB;

/** A hostile archive can hold 100 000 bad names; past this many of one kind, one summary stands for the rest. */
const MAX_FINDINGS_PER_KIND = 200;

export function resolveLimits(overrides: Partial<ArchiveLimits> = {}): ResolvedLimits {
  const merged = { ...DEFAULT_ARCHIVE_LIMITS, ...stripUndefined(overrides) };
  return {
    ...merged,
    maxNestedArchiveBytes: merged.maxNestedArchiveBytes ?? DEFAULT_NESTED_ARCHIVE_BYTES,
    maxKeptTextBytes: merged.maxKeptTextBytes ?? DEFAULT_KEPT_TEXT_BYTES,
  };
}

function stripUndefined(o: Partial<ArchiveLimits>): Partial<ArchiveLimits> {
  return Object.fromEntries(
    Object.entries(o).filter(([, v]) => v !== undefined),
  ) as Partial<ArchiveLimits>;
}

/** Thrown between entries when the caller's isCancelled answers true. */
export class ScanCancelledError extends Error {
  constructor() {
    super('scan cancelled');
    this.name = 'ScanCancelledError';
  }
}

export function isCancellation(err: unknown): boolean {
  return err instanceof Error && err.name === 'ScanCancelledError';
}

export class ReadingContext {
  readonly entries: ArchiveEntry[] = [];
  readonly findings: ArchiveFinding[] = [];
  readonly limitsReached: string[] = [];
  /** Every file seen, assets, symlinks and unreadable entries included. */
  fileCount = 0;
  /** Entries taken against maxEntries (directory records included: they cost reading too). */
  entriesTaken = 0;
  /** Bytes actually produced by inflation or read from files, never header values. */
  inflatedBytes = 0;
  /** Bytes currently kept for text-like entries. */
  keptTextBytes = 0;
  /** Bytes currently buffered by nested zips being read. */
  nestedArchiveBytes = 0;
  /** Set when a whole-read limit is hit: every loop stops at its next entry. */
  stopped = false;
  private readonly findingsPerKind = new Map<ArchiveFindingKind, number>();

  constructor(
    readonly limits: ResolvedLimits,
    private readonly isCancelled?: () => boolean,
  ) {}

  addFinding(kind: ArchiveFindingKind, path: string, detail: string): void {
    const seen = this.findingsPerKind.get(kind) ?? 0;
    this.findingsPerKind.set(kind, seen + 1);
    if (seen < MAX_FINDINGS_PER_KIND) {
      this.findings.push({ kind, path, detail });
    } else if (seen === MAX_FINDINGS_PER_KIND) {
      this.findings.push({
        kind,
        path,
        detail: `more than ${MAX_FINDINGS_PER_KIND} findings of this kind; the rest are not listed`,
      });
    }
  }

  /** Records that a limit cut something short (an entry or the whole read). */
  reachLimit(limit: string, path: string, detail: string): void {
    if (!this.limitsReached.includes(limit)) this.limitsReached.push(limit);
    this.addFinding('limit_reached', path, detail);
  }

  /** A whole-read limit: nothing more is read after the current entry. */
  stop(limit: string, path: string, detail: string): void {
    if (this.stopped) return;
    this.reachLimit(limit, path, detail);
    this.stopped = true;
  }

  checkCancelled(): void {
    if (this.isCancelled?.()) throw new ScanCancelledError();
  }

  /** Takes one entry against maxEntries; false (and the read stops) when none is left. */
  takeEntry(path: string): boolean {
    if (this.entriesTaken >= this.limits.maxEntries) {
      this.stop(
        'maxEntries',
        path,
        `more than ${this.limits.maxEntries} entries; the rest were not read`,
      );
      return false;
    }
    this.entriesTaken++;
    return true;
  }

  /**
   * Counts bytes produced by inflation or read from a file against maxTotalInflatedBytes.
   * Returns how many of them are past the limit (0 while within it); past it, the read stops.
   */
  takeBytes(path: string, length: number, how: 'read' | 'inflated'): number {
    this.inflatedBytes += length;
    const over = this.inflatedBytes - this.limits.maxTotalInflatedBytes;
    if (over > 0) {
      this.stop(
        'maxTotalInflatedBytes',
        path,
        `more than ${this.limits.maxTotalInflatedBytes} bytes ${how} in total; reading stopped`,
      );
    }
    return Math.max(0, over);
  }

  remainingEntries(): number {
    return Math.max(0, this.limits.maxEntries - this.entriesTaken);
  }
}

/** Joins a nested archive's path and an inner entry's path: `outer.zip/inner/path`. */
export function nestedPath(prefix: string, inner: string): string {
  return prefix === '' ? inner : `${prefix}/${inner}`;
}
