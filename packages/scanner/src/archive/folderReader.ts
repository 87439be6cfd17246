// Reads an unpacked addon folder the way the ZIP reader reads an archive: files streamed,
// symbolic links reported and never followed, special files skipped.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readlink } from 'node:fs/promises';
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
  let children;
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
  for (const child of children) {
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
    const fileHash = createHash('sha256');
    await analyseEntry(ctx, path, 0, countFileBytes(ctx, path, createReadStream(full), fileHash));
    manifest.update(`${path}\0${fileHash.digest('hex')}\n`);
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
    const over = ctx.takeBytes(path, chunk.length, 'read');
    if (over > 0) {
      const last = chunk.subarray(0, chunk.length - over);
      hash.update(last);
      yield last;
      return;
    }
    hash.update(chunk);
    yield chunk;
  }
}
