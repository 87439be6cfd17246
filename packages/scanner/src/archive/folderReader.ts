// Reads an unpacked addon folder the way the ZIP reader reads an archive: files read whole
// (large ones in chunks), symbolic links reported and never followed, special files skipped.
import { createHash, type Hash } from 'node:crypto';
import { closeSync, constants, openSync, readdirSync, readlinkSync, readSync } from 'node:fs';
import { join, sep } from 'node:path';
import { analyseEntry, analyseWholeEntry, sha256Hex } from './entryAnalysis.js';
import type { ReadingContext } from './readingContext.js';

/** Deeper folder trees than this are not a real addon; they only cost time. */
const MAX_FOLDER_DEPTH = 64;
/**
 * Files up to this size are read whole into a buffer reused from file to file (the analysis
 * copies whatever it keeps): thousands of streams cost far more than the bytes.
 */
const WHOLE_FILE_BYTES = 16 * 1024 * 1024;
/** Where the reused buffer starts; it grows as larger files come. */
const FIRST_SCRATCH_BYTES = 64 * 1024;
/** Larger files go on in chunks of this size. */
const CHUNK_BYTES = 1024 * 1024;
/** Reading is synchronous; past this long without a break, the event loop gets a turn. */
const MAX_BLOCKING_MS = 50;
/**
 * Never follows a link swapped in after the listing, and never blocks on a pipe swapped in
 * (non-blocking has no effect on regular files). Windows knows neither flag. Files are read
 * to their end, whatever size they had when listed: no stat is needed.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Reads the folder into the context; returns the SHA-256 of its manifest: in byte order of
 * paths, each file's path with the SHA-256 of its bytes, or only its size for a plain asset.
 */
export async function readFolder(ctx: ReadingContext, root: string): Promise<string> {
  const reader = new FolderReader(ctx);
  await reader.walk(join(root, '.'), '', 0);
  return reader.manifestDigest();
}

/** Manifest lines gathered before they are hashed: one hash call per file cost more than its line. */
const MANIFEST_BATCH_CHARS = 64 * 1024;

class FolderReader {
  private readonly manifest: Hash = createHash('sha256');
  /** Lines not hashed yet (hashing the joined lines gives the same digest). */
  private manifestLines = '';
  private readonly scratch = new ScratchBuffer();
  private lastBreak = performance.now();

  constructor(private readonly ctx: ReadingContext) {}

  async walk(dir: string, relative: string, level: number): Promise<void> {
    const ctx = this.ctx;
    if (level > MAX_FOLDER_DEPTH) {
      ctx.addFinding(
        'limit_reached',
        relative,
        `folder tree deeper than ${MAX_FOLDER_DEPTH} levels; not read further`,
      );
      return;
    }
    let listed;
    try {
      listed = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      ctx.addFinding(
        'corrupt_entry',
        relative || '.',
        `unreadable folder: ${(err as Error).message}`,
      );
      return;
    }
    // Byte order of names, so that the manifest hash does not depend on the file system.
    const children = inByteOrder(listed);
    // Nothing is awaited for a file unless it asks for it (see readFile): an await per file,
    // twice, cost a promise and a microtask turn each, about 1 % of reading the corpus.
    for (const child of children) {
      const pause = this.breakIfLong();
      if (pause) await pause;
      ctx.checkCancelled();
      if (ctx.stopped) return;
      const path = relative === '' ? child.name : `${relative}/${child.name}`;
      const full = `${dir}${sep}${child.name}`;
      if (child.isDirectory()) {
        await this.walk(full, path, level + 1);
        continue;
      }
      if (!ctx.takeEntry(path)) return;
      ctx.fileCount++;
      if (child.isSymbolicLink()) {
        let target = '?';
        try {
          target = readlinkSync(full);
        } catch {
          // Gone or unreadable since the listing: still reported, target unknown.
        }
        ctx.addFinding('symlink', path, `symbolic link to "${target}"; not followed`);
        this.addToManifest(`${path}\0symlink:${target}\n`);
        continue;
      }
      if (!child.isFile()) {
        reportSpecialFile(ctx, path);
        continue;
      }
      const reading = this.readFile(full, path);
      if (reading) await reading;
    }
  }

  /**
   * Reads and analyses one file. The common case (a file read whole, nothing inside it to
   * open) runs to its end here, free of generators and promises; a promise is returned only
   * for what must be waited for.
   */
  private readFile(full: string, path: string): Promise<void> | undefined {
    const ctx = this.ctx;
    let fd: number;
    try {
      fd = openSync(full, OPEN_FLAGS);
    } catch (err) {
      // Gone, unreadable, or a link swapped in: the entry is recorded with what went wrong.
      return this.recordUnopened(path, err);
    }
    const first = ctx.entries.length;
    let head: FileHead;
    let analysed: boolean | Promise<boolean> | undefined;
    try {
      head = readFileHead(ctx, fd, path, this.scratch);
      if (head.whole) analysed = analyseWholeEntry(ctx, path, 0, head.bytes);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    if (typeof analysed !== 'boolean') return this.readFileOn(fd, path, first, head, analysed);
    closeSync(fd);
    const reading: FileReading = { length: head.bytes.length, whole: head.bytes };
    this.addToManifest(`${path}\0${this.fingerprint(first, path, analysed, reading)}\n`);
    return undefined;
  }

  /** readFile's end when something must be waited for: an archive inside, or a large file. */
  private async readFileOn(
    fd: number,
    path: string,
    first: number,
    head: FileHead,
    analysed: Promise<boolean> | undefined,
  ): Promise<void> {
    try {
      const reading: FileReading = { length: 0 };
      let onlyCounted: boolean;
      if (analysed) {
        reading.whole = head.bytes;
        reading.length = head.bytes.length;
        onlyCounted = await analysed;
      } else {
        const rest = readFileRest(this.ctx, fd, path, reading, head);
        onlyCounted = await analyseEntry(this.ctx, path, 0, rest);
      }
      this.addToManifest(`${path}\0${this.fingerprint(first, path, onlyCounted, reading)}\n`);
    } finally {
      closeSync(fd);
    }
  }

  private async recordUnopened(path: string, err: unknown): Promise<void> {
    await analyseEntry(this.ctx, path, 0, failing(err));
    this.addToManifest(`${path}\0${EMPTY_SHA256}\n`);
  }

  private addToManifest(line: string): void {
    this.manifestLines += line;
    if (this.manifestLines.length >= MANIFEST_BATCH_CHARS) {
      this.manifest.update(this.manifestLines);
      this.manifestLines = '';
    }
  }

  manifestDigest(): string {
    return this.manifest.update(this.manifestLines).digest('hex');
  }

  /**
   * What the manifest says of a file. A plain asset is known by its size: hashing every
   * model and texture cost more than all the rest of the reading (decisions: folder
   * fingerprint). Whatever the analysis looks at is known by its SHA-256.
   */
  private fingerprint(
    first: number,
    path: string,
    onlyCounted: boolean,
    reading: FileReading,
  ): string {
    if (onlyCounted) return `asset ${reading.length}`;
    const whole = reading.whole;
    if (!whole) return reading.hash?.digest('hex') ?? EMPTY_SHA256;
    // Read in one piece: a Lua entry has already hashed these very bytes. A `lua` entry is
    // a copy of what it was given, cut or whole, so the same length means the same bytes.
    const entry = this.ctx.entries[first];
    if (
      entry?.path === path &&
      entry.sha256 !== undefined &&
      entry.bytes?.length === whole.length &&
      (entry.kind === 'lua' || Buffer.compare(entry.bytes, whole) === 0)
    ) {
      return entry.sha256;
    }
    return sha256Hex(whole);
  }

  /**
   * Reads run synchronously; a caller waiting on a timer or a message still gets its turn.
   * A promise only when that turn is due.
   */
  private breakIfLong(): Promise<void> | undefined {
    const now = performance.now();
    if (now - this.lastBreak < MAX_BLOCKING_MS) return undefined;
    return new Promise((resolve) => setImmediate(resolve)).then(() => {
      this.lastBreak = performance.now();
    });
  }
}

export interface FileReading {
  /** Bytes handed to the analysis. */
  length: number;
  /** The whole file, when it was read in one piece (a view of the reused buffer). */
  whole?: Buffer;
  /** Otherwise the hash of the pieces as they passed. */
  hash?: Hash;
}

/** Holds one file at a time, from file to file of one folder read; grows up to its limit. */
export class ScratchBuffer {
  private buffer = Buffer.allocUnsafe(0);

  constructor(readonly limit = WHOLE_FILE_BYTES) {}

  /** A buffer larger than the current one (up to the limit), holding its first `keep` bytes. */
  grow(keep: number): Buffer {
    const size = Math.min(this.limit, Math.max(FIRST_SCRATCH_BYTES, this.buffer.length * 4));
    const grown = Buffer.allocUnsafe(size);
    this.buffer.copy(grown, 0, 0, keep);
    this.buffer = grown;
    return grown;
  }

  get current(): Buffer {
    return this.buffer;
  }
}

/** The first part of a file, read in one go: the whole file unless it is over the scratch limit. */
export interface FileHead {
  /** A view of the scratch buffer, already counted against the total limit. */
  bytes: Buffer;
  /** The file ended within `bytes` (or the total limit cut it there): nothing more to read. */
  whole: boolean;
  /** A read that failed after `bytes`. */
  error?: unknown;
}

/**
 * Reads a file to its end (whatever size it had when listed) into the scratch buffer, or
 * up to the scratch limit, and counts the bytes against the total limit as inflated bytes
 * would be.
 */
export function readFileHead(
  ctx: ReadingContext,
  fd: number,
  path: string,
  scratch: ScratchBuffer,
): FileHead {
  let buffer = scratch.current;
  let position = 0;
  let ended = false;
  let error: unknown;
  try {
    while (!ended) {
      if (position === buffer.length) {
        if (buffer.length >= scratch.limit) break;
        buffer = scratch.grow(position);
      }
      const wanted = buffer.length - position;
      const n = readSync(fd, buffer, position, wanted, position);
      // A regular file returns less than asked only at its end: stopping there saves the
      // read that would return 0, one system call in four per file (a folder of assets is
      // mostly system calls). What a file gains after that read is not part of this scan,
      // as for any byte appended after its last read. (`wanted` is never 0: the buffer grew
      // above when it was full, so a read of 0 bytes is a short read too.)
      if (n < wanted) ended = true;
      position += n;
    }
  } catch (err) {
    error = err;
  }
  const over = ctx.takeBytes(path, position, 'read');
  const bytes = buffer.subarray(0, position - over);
  return { bytes, whole: error === undefined && (ended || over > 0), error };
}

/**
 * A file that did not fit its head as the analysis pulls it: the head, then fresh chunks
 * counted against the total limit, all hashed as they pass. A failed read ends it.
 */
export function* readFileRest(
  ctx: ReadingContext,
  fd: number,
  path: string,
  reading: FileReading,
  head: FileHead,
): Generator<Uint8Array> {
  const hash = (reading.hash = createHash('sha256'));
  hash.update(head.bytes);
  reading.length = head.bytes.length;
  if (head.bytes.length > 0) yield head.bytes;
  if (head.error !== undefined) throw head.error;
  let position = head.bytes.length;
  for (;;) {
    // Fresh buffers: the analysis may hold earlier chunks until the entry ends.
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    const n = readSync(fd, chunk, 0, CHUNK_BYTES, position);
    if (n === 0) return;
    position += n;
    const past = ctx.takeBytes(path, n, 'read');
    const bytes = chunk.subarray(0, n - past);
    reading.length += bytes.length;
    hash.update(bytes);
    if (bytes.length > 0) yield bytes;
    if (past > 0) return;
  }
}

/**
 * The bytes of an open file as the analysis pulls them: one chunk of the scratch buffer
 * (kept in `reading.whole` for the manifest) when the file fits, else its head and the rest.
 */
export function* readFileChunks(
  ctx: ReadingContext,
  fd: number,
  path: string,
  reading: FileReading,
  scratch: ScratchBuffer,
): Generator<Uint8Array> {
  const head = readFileHead(ctx, fd, path, scratch);
  if (!head.whole) return yield* readFileRest(ctx, fd, path, reading, head);
  reading.whole = head.bytes;
  reading.length = head.bytes.length;
  if (head.bytes.length > 0) yield head.bytes;
}

const EMPTY_SHA256 = sha256Hex(new Uint8Array(0));

/** A UTF-16 surrogate: the one place where string order and UTF-8 byte order differ. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Folder children sorted by the UTF-8 bytes of their names. UTF-8 keeps code point order,
 * as comparing strings does for names without surrogates: those are sorted as strings,
 * with no Buffer per name (a folder of thousands of files paid more for the keys).
 */
function inByteOrder<T extends { name: string }>(listed: T[]): T[] {
  // (Callbacks made once: see SharedViews.callsWhere in rules/shared.ts.)
  if (listed.some(hasSurrogateName)) {
    return listed
      .map((child) => ({ child, key: Buffer.from(child.name) }))
      .sort((a, b) => Buffer.compare(a.key, b.key))
      .map(({ child }) => child);
  }
  return listed.sort(byName);
}

const hasSurrogateName = (child: { name: string }): boolean => SURROGATE.test(child.name);
const byName = (a: { name: string }, b: { name: string }): number =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

function reportSpecialFile(ctx: ReadingContext, path: string): void {
  ctx.addFinding('corrupt_entry', path, 'not a regular file (device, socket or pipe); not read');
}

/** A source that fails at once, so the entry is analysed (and reported) like any unreadable one. */
function failing(err: unknown): Iterable<Uint8Array> {
  return {
    [Symbol.iterator]: () => ({
      next: () => {
        throw err;
      },
    }),
  };
}
