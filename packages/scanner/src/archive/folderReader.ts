// Reads an unpacked addon folder the way the ZIP reader reads an archive: files streamed,
// symbolic links reported and never followed, special files skipped.
import { createHash, type Hash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { type FileHandle, open, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { analyseEntry } from './entryAnalysis.js';
import type { ReadingContext } from './readingContext.js';

/** Deeper folder trees than this are not a real addon; they only cost time. */
const MAX_FOLDER_DEPTH = 64;

/** Reads the folder into the context; returns the SHA-256 of its manifest (path + file hash, sorted). */
export async function readFolder(ctx: ReadingContext, root: string): Promise<string> {
  const manifest = createHash('sha256');
  await walk(ctx, root, '', 0, manifest);
  return manifest.digest('hex');
}

async function walk(
  ctx: ReadingContext,
  dir: string,
  relative: string,
  level: number,
  manifest: Hash,
): Promise<void> {
  if (level > MAX_FOLDER_DEPTH) {
    ctx.addFinding(
      'limit_reached',
      relative,
      `folder tree deeper than ${MAX_FOLDER_DEPTH} levels; not read further`,
    );
    return;
  }
  let children: Dirent[];
  try {
    children = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    ctx.addFinding(
      'corrupt_entry',
      relative || '.',
      `unreadable folder: ${(err as Error).message}`,
    );
    return;
  }
  // Byte order of names, so that the manifest hash does not depend on the file system.
  children.sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  // The next files are opened and read while this one is analysed: the analysis no longer
  // waits on the disk for each small file in turn.
  const ahead = new Map<number, Promise<OpenedFile>>();
  let nextAhead = 0;
  const prefetch = (upTo: number): void => {
    for (; nextAhead < children.length && nextAhead <= upTo; nextAhead++) {
      const c = children[nextAhead]!;
      if (!c.isFile()) continue;
      const opening = openFile(join(dir, c.name));
      // Read ahead, maybe never used (limits, cancellation): a failure surfaces when used.
      opening.catch(() => undefined);
      ahead.set(nextAhead, opening);
    }
  };
  try {
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!;
      ctx.checkCancelled();
      if (ctx.stopped) return;
      const path = relative === '' ? child.name : `${relative}/${child.name}`;
      const full = join(dir, child.name);
      if (child.isDirectory()) {
        await walk(ctx, full, path, level + 1, manifest);
        continue;
      }
      if (!ctx.takeEntry(path)) return;
      ctx.fileCount++;
      if (child.isSymbolicLink()) {
        const target = await readlink(full).catch(() => '?');
        ctx.addFinding('symlink', path, `symbolic link to "${target}"; not followed`);
        manifest.update(`${path}\0symlink:${target}\n`);
        continue;
      }
      if (!child.isFile()) {
        ctx.addFinding(
          'corrupt_entry',
          path,
          'not a regular file (device, socket or pipe); not read',
        );
        continue;
      }
      prefetch(index + PREFETCH);
      const opening = ahead.get(index) ?? openFile(full);
      ahead.delete(index);
      const fileHash = createHash('sha256');
      await analyseEntry(ctx, path, 0, countFileBytes(ctx, path, fileChunks(opening), fileHash));
      manifest.update(`${path}\0${fileHash.digest('hex')}\n`);
    }
  } finally {
    // Files read ahead but never used are closed.
    for (const opening of ahead.values()) void opening.then((f) => f.handle.close()).catch(() => undefined);
  }
}

/** Files of a folder opened and read ahead of their turn. */
const PREFETCH = 8;
/** Largest single read; bigger files come in chunks of this size. */
const READ_CHUNK = 1024 * 1024;

/** A file opened and its first bytes read (small files: all of it, in one read). */
interface OpenedFile {
  handle: FileHandle;
  first: Buffer;
}

async function openFile(full: string): Promise<OpenedFile> {
  const handle = await open(full, 'r');
  try {
    const { size } = await handle.stat();
    // The size only sizes the first buffer: a file that grows or shrinks is read to its end.
    const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(size, READ_CHUNK)));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    return { handle, first: buffer.subarray(0, bytesRead) };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/** The bytes of an opened file: what was read ahead, then the rest; closes it at the end. */
async function* fileChunks(opening: Promise<OpenedFile>): AsyncGenerator<Buffer> {
  const { handle, first } = await opening;
  try {
    if (first.length === 0) return;
    yield first;
    for (;;) {
      // The consumer may keep each chunk: every read goes to a fresh buffer.
      const buffer = Buffer.allocUnsafe(READ_CHUNK);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** File bytes count against the total limit as inflated bytes would. */
async function* countFileBytes(
  ctx: ReadingContext,
  path: string,
  stream: AsyncIterable<Buffer>,
  hash: Hash,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of stream) {
    ctx.inflatedBytes += chunk.length;
    const over = ctx.inflatedBytes - ctx.limits.maxTotalInflatedBytes;
    if (over > 0) {
      ctx.stop(
        'maxTotalInflatedBytes',
        path,
        `more than ${ctx.limits.maxTotalInflatedBytes} bytes read in total; reading stopped`,
      );
      const last = chunk.subarray(0, chunk.length - over);
      hash.update(last);
      yield last;
      return;
    }
    hash.update(chunk);
    yield chunk;
  }
}
