// Reads a ZIP with yauzl, entry by entry, never trusting its headers: sizes are counted on
// inflated bytes, overlapping entries (a bomb technique) are refused, names are normalised,
// encrypted and symlink entries are reported and not read.
import { inflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';
import { CachedArchiveFile } from './archiveFile.js';
import { analyseEntry } from './entryAnalysis.js';
import { decodeZipName, isDirectoryName, normaliseEntryName } from './entryNames.js';
import { isCancellation, nestedPath, type ReadingContext } from './readingContext.js';
import { UnusableArchiveError } from './types.js';

/** An entry that inflates past this ratio (and past MIN_BOMB_BYTES) is a zip bomb: real assets stay far below. */
const BOMB_RATIO = 200;
const MIN_BOMB_BYTES = 32 * 1024 * 1024;

/** Small entries are read and inflated in one call: 100 000 streams cost more than the bytes. */
const SMALL_ENTRY_BYTES = 1024 * 1024;

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

type ZipSource = { path: string } | { bytes: Buffer };

// Entry as yauzl hands it with decodeStrings:false (its typings assume decoded strings).
interface RawEntry extends Omit<yauzl.Entry, 'fileName'> {
  fileName: Buffer;
}

interface EntryPlan {
  entry: RawEntry;
  overlaps: boolean;
}

/**
 * Reads every entry of the ZIP into the context. Throws UnusableArchiveError when the ZIP
 * itself cannot be opened or its central directory is broken.
 */
export async function readZip(
  ctx: ReadingContext,
  source: ZipSource,
  prefix: string,
  depth: number,
): Promise<void> {
  let file: CachedArchiveFile | undefined;
  if ('path' in source) {
    try {
      file = await CachedArchiveFile.open(source.path);
    } catch (err) {
      throw new UnusableArchiveError(
        'not_zip',
        `cannot open the archive: ${(err as Error).message}`,
      );
    }
  }
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file ?? (source as { bytes: Buffer }));
  } catch (err) {
    await file?.release();
    throw err;
  }
  try {
    const declared = zip.entryCount;
    const budget = ctx.remainingEntries();
    const { entries, error } = await readCentralDirectory(zip, Math.min(declared, budget));
    if (error)
      throw new UnusableArchiveError('corrupt', `broken central directory: ${error.message}`);
    const plans = planEntries(ctx, entries, prefix);
    const readSmall: SmallEntryReader = file
      ? (offset, length) => file.readAt(offset, length)
      : memorySlicer((source as { bytes: Buffer }).bytes);
    await readEntries(ctx, zip, readSmall, plans, prefix, depth);
    if (declared > budget && !ctx.stopped) {
      ctx.stop(
        'maxEntries',
        prefix || '(archive)',
        `more than ${ctx.limits.maxEntries} entries; the rest were not read`,
      );
    }
  } finally {
    zip.close();
    await file?.release();
  }
}

/** A ZIP found inside another archive: if it cannot be read, that is a finding. */
export async function readNestedZip(
  ctx: ReadingContext,
  bytes: Buffer,
  path: string,
  depth: number,
): Promise<void> {
  try {
    await readZip(ctx, { bytes }, path, depth);
  } catch (err) {
    if (isCancellation(err)) throw err;
    ctx.addFinding(
      'corrupt_entry',
      path,
      `unreadable nested archive: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

function openZip(source: CachedArchiveFile | { bytes: Buffer }): Promise<yauzl.ZipFile> {
  const options: yauzl.Options = {
    lazyEntries: true,
    autoClose: false,
    decodeStrings: false,
    // yauzl's own check rejects the whole archive for one lying stored entry; sizes are
    // checked per entry on the inflated bytes instead (see guardInflation).
    validateEntrySizes: false,
  };
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, zip?: yauzl.ZipFile): void => {
      if (err || !zip) {
        const looksLikeZip =
          source instanceof CachedArchiveFile ||
          source.bytes.subarray(0, 2).toString('latin1') === 'PK';
        reject(
          new UnusableArchiveError(
            looksLikeZip ? 'corrupt' : 'not_zip',
            err?.message ?? 'unreadable ZIP',
          ),
        );
      } else {
        resolve(zip);
      }
    };
    if (source instanceof CachedArchiveFile)
      yauzl.fromRandomAccessReader(source, source.size, options, done);
    else yauzl.fromBuffer(source.bytes, options, done);
  });
}

function readCentralDirectory(
  zip: yauzl.ZipFile,
  count: number,
): Promise<{ entries: RawEntry[]; error?: Error }> {
  return new Promise((resolve) => {
    const entries: RawEntry[] = [];
    if (count === 0) return resolve({ entries });
    const finish = (error?: Error): void => {
      zip.removeListener('entry', onEntry);
      zip.removeListener('error', finish);
      zip.removeListener('end', onEnd);
      resolve({ entries, error });
      // Later errors can only come from closing the file; nothing is left to report them to.
      zip.on('error', () => undefined);
    };
    const onEnd = (): void => finish();
    const onEntry = (entry: RawEntry): void => {
      entries.push(entry);
      if (entries.length >= count) finish();
      else zip.readEntry();
    };
    zip.on('entry', onEntry);
    zip.on('error', finish);
    zip.on('end', onEnd);
    zip.readEntry();
  });
}

/**
 * Finds entries whose bytes lie inside another entry's (local header offset before the end
 * of an earlier entry's data). Such overlap only serves to inflate the same bytes again and
 * again; the overlapping entries are reported once and not inflated.
 */
function planEntries(ctx: ReadingContext, entries: RawEntry[], prefix: string): EntryPlan[] {
  const plans = entries.map((entry) => ({ entry, overlaps: false }));
  const files = plans.filter((p) => !endsWithSlash(p.entry.fileName));
  const byOffset = [...files].sort(
    (a, b) => a.entry.relativeOffsetOfLocalHeader - b.entry.relativeOffsetOfLocalHeader,
  );
  let reach = -1;
  let overlapping = 0;
  let first: EntryPlan | undefined;
  for (const plan of byOffset) {
    const start = plan.entry.relativeOffsetOfLocalHeader;
    // The local header is at least 30 bytes plus the name; its extra field may add more, so
    // this end is never past the real one and never flags a well-formed archive.
    const end = start + 30 + plan.entry.fileNameLength + plan.entry.compressedSize;
    if (start < reach) {
      plan.overlaps = true;
      overlapping++;
      first ??= plan;
    }
    reach = Math.max(reach, end);
  }
  if (first) {
    const name = normaliseEntryName(
      decodeZipName(
        first.entry.fileName,
        first.entry.generalPurposeBitFlag,
        first.entry.extraFields,
      ),
    );
    ctx.addFinding(
      'overlapping_entries',
      nestedPath(prefix, name.path),
      `${overlapping} entr${overlapping === 1 ? 'y shares' : 'ies share'} compressed bytes with another entry (overlapping local headers, a zip-bomb technique); they were not inflated`,
    );
  }
  return plans;
}

async function readEntries(
  ctx: ReadingContext,
  zip: yauzl.ZipFile,
  readSmall: SmallEntryReader,
  plans: EntryPlan[],
  prefix: string,
  depth: number,
): Promise<void> {
  for (const { entry, overlaps } of plans) {
    ctx.checkCancelled();
    if (ctx.stopped) return;
    const rawName = decodeZipName(entry.fileName, entry.generalPurposeBitFlag, entry.extraFields);
    const name = normaliseEntryName(rawName);
    const path = nestedPath(prefix, name.path);
    if (!ctx.takeEntry(path)) return;
    if (isDirectoryName(rawName)) continue;
    ctx.fileCount++;
    if (name.traversal)
      ctx.addFinding('path_traversal', path, `name "${rawName}" climbs out of its folder with ..`);
    if (name.absolute)
      ctx.addFinding('absolute_path', path, `name "${rawName}" is an absolute path`);

    if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
      ctx.addFinding('symlink', path, 'symbolic link entry; not followed');
      continue;
    }
    if ((entry.generalPurposeBitFlag & 0x1) !== 0) {
      ctx.addFinding('encrypted_entry', path, 'encrypted entry; its contents cannot be checked');
      continue;
    }
    if (overlaps) continue;
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      ctx.addFinding(
        'corrupt_entry',
        path,
        `unsupported compression method ${entry.compressionMethod}; not read`,
      );
      continue;
    }
    const small = await readSmallEntry(readSmall, entry);
    if (small) {
      await analyseEntry(ctx, path, depth, guardWhole(ctx, path, small, entry));
      continue;
    }
    let stream: NodeJS.ReadableStream;
    try {
      stream = await openEntryStream(zip, entry);
    } catch (err) {
      ctx.addFinding(
        'corrupt_entry',
        path,
        `cannot open entry: ${err instanceof Error ? err.message : String(err)}`,
      );
      continue;
    }
    await analyseEntry(
      ctx,
      path,
      depth,
      guardInflation(ctx, path, stream as AsyncIterable<Buffer>, entry),
    );
  }
}

/** A directory record: its raw name ends with `/` or `\\` (both ASCII in CP437 and UTF-8). */
function endsWithSlash(rawName: Buffer): boolean {
  const last = rawName[rawName.length - 1];
  return last === 0x2f || last === 0x5c;
}

/** Reads `length` bytes of the archive at `offset` (fewer at its end). */
type SmallEntryReader = (offset: number, length: number) => Promise<Buffer>;

function memorySlicer(bytes: Buffer): SmallEntryReader {
  return (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length));
}

/** Slack read past the name for the local extra field, so one read usually takes the whole entry. */
const LOCAL_EXTRA_SLACK = 256;

/**
 * The whole content of a small entry, read in one go and inflated in one call, or undefined
 * to take the streaming path (large, malformed, or inflating past its declared size: the
 * stream reports those). Streams cost far more than the bytes of 100 000 tiny entries.
 */
async function readSmallEntry(
  read: SmallEntryReader,
  entry: RawEntry,
): Promise<Buffer | undefined> {
  if (entry.compressedSize > SMALL_ENTRY_BYTES || entry.uncompressedSize > SMALL_ENTRY_BYTES)
    return undefined;
  const at = entry.relativeOffsetOfLocalHeader;
  let block = await read(at, 30 + entry.fileNameLength + LOCAL_EXTRA_SLACK + entry.compressedSize);
  if (block.length < 30 || block.readUInt32LE(0) !== 0x04034b50) return undefined;
  const start = 30 + block.readUInt16LE(26) + block.readUInt16LE(28);
  const end = start + entry.compressedSize;
  if (end > block.length) {
    block = await read(at, end);
    if (end > block.length) return undefined;
  }
  const raw = block.subarray(start, end);
  if (entry.compressionMethod === 0) return raw;
  try {
    // The output cap is checked on the bytes produced: a lying size throws and falls back.
    // One output buffer the entry's size: no chunks to join afterwards.
    return inflateRawSync(raw, {
      maxOutputLength: Math.max(1, entry.uncompressedSize),
      chunkSize: Math.max(64, entry.uncompressedSize + 1),
    });
  } catch {
    return undefined;
  }
}

function openEntryStream(zip: yauzl.ZipFile, entry: RawEntry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry as unknown as yauzl.Entry, (err, stream) =>
      err || !stream ? reject(err ?? new Error('no stream')) : resolve(stream),
    );
  });
}

/**
 * Counts the bytes an entry really inflates to: stops the entry when it passes its declared
 * size or the bomb ratio, and the whole read at the total-inflated limit.
 */
class InflationGuard {
  private produced = 0;

  constructor(
    private readonly ctx: ReadingContext,
    private readonly path: string,
    private readonly entry: RawEntry,
  ) {}

  /** The part of the chunk to analyse (none past the bomb ratio), and whether the entry goes on. */
  admit(chunk: Buffer): { bytes?: Buffer; more: boolean } {
    const { ctx, path, entry } = this;
    this.produced += chunk.length;
    const produced = this.produced;
    const overTotal = ctx.takeBytes(path, chunk.length, 'inflated');
    if (overTotal > 0) return { bytes: chunk.subarray(0, chunk.length - overTotal), more: false };
    if (produced > entry.uncompressedSize) {
      ctx.addFinding(
        'zip_bomb',
        path,
        `inflates past the ${entry.uncompressedSize} bytes its header declares; cut there`,
      );
      return {
        bytes: chunk.subarray(0, chunk.length - (produced - entry.uncompressedSize)),
        more: false,
      };
    }
    if (produced >= MIN_BOMB_BYTES && produced > BOMB_RATIO * Math.max(1, entry.compressedSize)) {
      ctx.addFinding(
        'zip_bomb',
        path,
        `${entry.compressedSize} compressed bytes inflate past ${produced} bytes (ratio over ${BOMB_RATIO}); cut there`,
      );
      return { more: false };
    }
    return { bytes: chunk, more: true };
  }

  /** At the end of the entry's bytes: fewer than declared is reported. */
  end(): void {
    if (this.produced < this.entry.uncompressedSize) {
      this.ctx.addFinding(
        'corrupt_entry',
        this.path,
        `inflates to ${this.produced} bytes, ${this.entry.uncompressedSize} declared`,
      );
    }
  }
}

/** A small entry read whole: guarded like a stream, without a promise per chunk. */
function* guardWhole(
  ctx: ReadingContext,
  path: string,
  bytes: Buffer,
  entry: RawEntry,
): Generator<Uint8Array> {
  const guard = new InflationGuard(ctx, path, entry);
  const { bytes: admitted, more } = guard.admit(bytes);
  if (admitted) yield admitted;
  if (more) guard.end();
}

async function* guardInflation(
  ctx: ReadingContext,
  path: string,
  stream: AsyncIterable<Buffer>,
  entry: RawEntry,
): AsyncGenerator<Uint8Array> {
  const guard = new InflationGuard(ctx, path, entry);
  for await (const chunk of stream) {
    const { bytes, more } = guard.admit(chunk);
    if (bytes) yield bytes;
    if (!more) return;
  }
  guard.end();
}
