// Reads a ZIP with yauzl, entry by entry, never trusting its headers: sizes are counted on
// inflated bytes, overlapping entries (a bomb technique) are refused, names are normalised,
// encrypted and symlink entries are reported and not read.
import { inflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';
import { analyseEntry } from './entryAnalysis.js';
import { decodeZipName, isDirectoryName, normaliseEntryName } from './entryNames.js';
import { isCancellation, nestedPath, type ReadingContext } from './readingContext.js';
import { UnusableArchiveError } from './types.js';

/** An entry that inflates past this ratio (and past MIN_BOMB_BYTES) is a zip bomb: real assets stay far below. */
const BOMB_RATIO = 200;
const MIN_BOMB_BYTES = 32 * 1024 * 1024;

/** Small entries of an in-memory ZIP are inflated in one call: 100 000 streams cost more than the bytes. */
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
export async function readZip(ctx: ReadingContext, source: ZipSource, prefix: string, depth: number): Promise<void> {
  const zip = await openZip(source);
  try {
    const declared = zip.entryCount;
    const budget = ctx.remainingEntries();
    const { entries, error } = await readCentralDirectory(zip, Math.min(declared, budget));
    if (error) throw new UnusableArchiveError('corrupt', `broken central directory: ${error.message}`);
    const bytes = 'bytes' in source ? source.bytes : undefined;
    await readEntries(ctx, zip, bytes, planEntries(ctx, entries, prefix), prefix, depth);
    if (declared > budget && !ctx.stopped) {
      ctx.stop('maxEntries', prefix || '(archive)', `more than ${ctx.limits.maxEntries} entries; the rest were not read`);
    }
  } finally {
    zip.close();
  }
}

/** A ZIP found inside another archive: if it cannot be read, that is a finding. */
export async function readNestedZip(ctx: ReadingContext, bytes: Buffer, path: string, depth: number): Promise<void> {
  try {
    await readZip(ctx, { bytes }, path, depth);
  } catch (err) {
    if (isCancellation(err)) throw err;
    ctx.addFinding('corrupt_entry', path, `unreadable nested archive: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function openZip(source: ZipSource): Promise<yauzl.ZipFile> {
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
        const looksLikeZip = 'bytes' in source ? source.bytes.subarray(0, 2).toString('latin1') === 'PK' : true;
        reject(new UnusableArchiveError(looksLikeZip ? 'corrupt' : 'not_zip', err?.message ?? 'unreadable ZIP'));
      } else {
        resolve(zip);
      }
    };
    if ('path' in source) yauzl.open(source.path, options, done);
    else yauzl.fromBuffer(source.bytes, options, done);
  });
}

function readCentralDirectory(zip: yauzl.ZipFile, count: number): Promise<{ entries: RawEntry[]; error?: Error }> {
  return new Promise((resolve) => {
    const entries: RawEntry[] = [];
    if (count === 0) return resolve({ entries });
    const finish = (error?: Error): void => {
      zip.removeListener('entry', onEntry);
      zip.removeListener('error', finish);
      zip.removeListener('end', onEnd);
      resolve({ entries, error });
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
  const files = plans.filter((p) => !isDirectoryName(p.entry.fileName.toString('latin1')));
  const byOffset = [...files].sort((a, b) => a.entry.relativeOffsetOfLocalHeader - b.entry.relativeOffsetOfLocalHeader);
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
    const name = normaliseEntryName(decodeZipName(first.entry.fileName, first.entry.generalPurposeBitFlag, first.entry.extraFields));
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
  bytes: Buffer | undefined,
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
    if (name.traversal) ctx.addFinding('path_traversal', path, `name "${rawName}" climbs out of its folder with ..`);
    if (name.absolute) ctx.addFinding('absolute_path', path, `name "${rawName}" is an absolute path`);

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
      ctx.addFinding('corrupt_entry', path, `unsupported compression method ${entry.compressionMethod}; not read`);
      continue;
    }
    const small = bytes ? inflateSmallEntry(bytes, entry) : undefined;
    if (small) {
      await analyseEntry(ctx, path, depth, guardInflation(ctx, path, [small], entry));
      continue;
    }
    let stream: NodeJS.ReadableStream;
    try {
      stream = await openEntryStream(zip, entry);
    } catch (err) {
      ctx.addFinding('corrupt_entry', path, `cannot open entry: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    await analyseEntry(ctx, path, depth, guardInflation(ctx, path, stream as AsyncIterable<Buffer>, entry));
  }
}

/**
 * The whole content of a small entry of an in-memory ZIP, or undefined to take the streaming
 * path (large, malformed, or inflating past its declared size: the stream reports those).
 */
function inflateSmallEntry(bytes: Buffer, entry: RawEntry): Buffer | undefined {
  if (entry.compressedSize > SMALL_ENTRY_BYTES || entry.uncompressedSize > SMALL_ENTRY_BYTES) return undefined;
  const at = entry.relativeOffsetOfLocalHeader;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== 0x04034b50) return undefined;
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > bytes.length) return undefined;
  const raw = bytes.subarray(start, end);
  if (entry.compressionMethod === 0) return raw;
  try {
    // The output cap is checked on the bytes produced: a lying size throws and falls back.
    return inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
  } catch {
    return undefined;
  }
}

function openEntryStream(zip: yauzl.ZipFile, entry: RawEntry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry as unknown as yauzl.Entry, (err, stream) => (err || !stream ? reject(err ?? new Error('no stream')) : resolve(stream)));
  });
}

/**
 * Counts the bytes an entry really inflates to: stops the entry when it passes its declared
 * size or the bomb ratio, and the whole read at the total-inflated limit.
 */
async function* guardInflation(
  ctx: ReadingContext,
  path: string,
  stream: AsyncIterable<Buffer> | Iterable<Buffer>,
  entry: RawEntry,
): AsyncGenerator<Uint8Array> {
  let produced = 0;
  for await (const chunk of stream) {
    produced += chunk.length;
    ctx.inflatedBytes += chunk.length;
    const overTotal = ctx.inflatedBytes - ctx.limits.maxTotalInflatedBytes;
    if (overTotal > 0) {
      ctx.stop('maxTotalInflatedBytes', path, `more than ${ctx.limits.maxTotalInflatedBytes} bytes inflated in total; reading stopped`);
      yield chunk.subarray(0, chunk.length - overTotal);
      return;
    }
    if (produced > entry.uncompressedSize) {
      ctx.addFinding('zip_bomb', path, `inflates past the ${entry.uncompressedSize} bytes its header declares; cut there`);
      yield chunk.subarray(0, chunk.length - (produced - entry.uncompressedSize));
      return;
    }
    if (produced >= MIN_BOMB_BYTES && produced > BOMB_RATIO * Math.max(1, entry.compressedSize)) {
      ctx.addFinding(
        'zip_bomb',
        path,
        `${entry.compressedSize} compressed bytes inflate past ${produced} bytes (ratio over ${BOMB_RATIO}); cut there`,
      );
      return;
    }
    yield chunk;
  }
  if (produced < entry.uncompressedSize) {
    ctx.addFinding('corrupt_entry', path, `inflates to ${produced} bytes, ${entry.uncompressedSize} declared`);
  }
}
