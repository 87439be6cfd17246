// The archive layer's entry point: an uploaded ZIP (bytes or path), a .gma, or an unpacked
// addon folder in; a virtual file tree and what was wrong with the archive out. Never writes to disk.
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { startsWith } from './contentSniffing.js';
import { readFolder } from './folderReader.js';
import { readGma } from './gmaReader.js';
import { isCancellation, ReadingContext, resolveLimits } from './readingContext.js';
import { UnusableArchiveError, type ArchiveContents, type ArchiveLimits } from './types.js';
import { readZip } from './zipReader.js';

export { DEFAULT_ARCHIVE_LIMITS, ScanCancelledError } from './readingContext.js';

/** Streams of whole files read this much at a time (the 64 KiB default means 16 times the callbacks). */
const READ_CHUNK_BYTES = 1024 * 1024;
export * from './types.js';

export interface ReadArchiveOptions {
  /** Asked between entries; when it answers true, reading stops with a ScanCancelledError. */
  isCancelled?: () => boolean;
}

/**
 * Reads an archive without extracting it. `input` is the ZIP's bytes, or a path to a
 * .zip/.gma file, or a path to a folder (an unpacked addon). Throws UnusableArchiveError only
 * when the input as a whole cannot be read; every other problem is a finding.
 */
export async function readArchive(
  input: Uint8Array | string,
  limits: Partial<ArchiveLimits> = {},
  options: ReadArchiveOptions = {},
): Promise<ArchiveContents> {
  const ctx = new ReadingContext(resolveLimits(limits), options.isCancelled);
  const sha256 =
    typeof input === 'string' ? await readPath(ctx, input) : await readBytes(ctx, input);
  if (ctx.fileCount === 0) throw new UnusableArchiveError('empty', 'the archive holds no files');
  return {
    entries: ctx.entries,
    findings: ctx.findings,
    limitsReached: ctx.limitsReached,
    sha256,
    fileCount: ctx.fileCount,
  };
}

async function readBytes(ctx: ReadingContext, input: Uint8Array): Promise<string> {
  checkSize(ctx, input.byteLength);
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (startsWith(bytes, 'GMAD')) {
    await readTopLevelGma(ctx, [bytes]);
  } else {
    await readZip(ctx, { bytes }, '', 0);
  }
  return sha256;
}

async function readPath(ctx: ReadingContext, path: string): Promise<string> {
  let stats;
  try {
    // Synchronous: a round trip through the thread pool costs more than the call itself.
    stats = statSync(path);
  } catch (err) {
    throw new UnusableArchiveError(
      'not_zip',
      `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  if (stats.isDirectory()) return readFolder(ctx, path);
  if (!stats.isFile())
    throw new UnusableArchiveError('not_zip', `${path} is not a file or a folder`);
  checkSize(ctx, stats.size);
  // The whole-file hash streams beside the reading, so the file is never loaded whole.
  const hashing = hashFile(path);
  hashing.catch(() => undefined);
  const magic = readMagic(path);
  if (startsWith(magic, 'GMAD')) {
    await readTopLevelGma(ctx, createReadStream(path, { highWaterMark: READ_CHUNK_BYTES }));
  } else {
    await readZip(ctx, { path }, '', 0).catch((err: unknown) => {
      // yauzl cannot tell "not a zip" from "broken zip" for a path; the first bytes can.
      if (err instanceof UnusableArchiveError && !startsWith(magic, 'PK')) {
        throw new UnusableArchiveError('not_zip', err.message);
      }
      throw err;
    });
  }
  return hashing;
}

function checkSize(ctx: ReadingContext, size: number): void {
  if (size === 0) throw new UnusableArchiveError('empty', 'the archive is empty');
  if (size > ctx.limits.maxArchiveBytes) {
    throw new UnusableArchiveError(
      'too_large',
      `the archive is ${size} bytes, over the ${ctx.limits.maxArchiveBytes}-byte limit`,
    );
  }
}

async function readTopLevelGma(
  ctx: ReadingContext,
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): Promise<void> {
  async function* counted(): AsyncGenerator<Uint8Array> {
    for await (const chunk of source) {
      if (ctx.takeBytes('(addon.gma)', chunk.length, 'read') > 0) return;
      yield chunk;
    }
  }
  try {
    await readGma(ctx, counted(), '', 0);
  } catch (err) {
    if (isCancellation(err)) throw err;
    throw new UnusableArchiveError(
      'corrupt',
      `unreadable .gma: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

function readMagic(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(4);
    return buffer.subarray(0, readSync(fd, buffer, 0, 4, 0));
  } finally {
    closeSync(fd);
  }
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: READ_CHUNK_BYTES }))
    hash.update(chunk as Buffer);
  return hash.digest('hex');
}
