// Reads a Garry's Mod addon (.gma: "GMAD" header, file table, contents back to back) as a
// stream, so a large addon is never held whole; every bound a header claims is checked.
import { ByteStreamReader } from './byteStreamReader.js';
import { analyseEntry } from './entryAnalysis.js';
import { normaliseEntryName } from './entryNames.js';
import { isCancellation, nestedPath, type ReadingContext } from './readingContext.js';

/** Header strings (name, description, author, required content) are short in practice. */
const MAX_HEADER_STRING_BYTES = 1024 * 1024;
const MAX_REQUIRED_CONTENT = 4096;
const MAX_FILE_NAME_BYTES = 4096;
const HIGHEST_KNOWN_VERSION = 3;

/** The header or the file table cannot be read: the .gma as a whole is unusable. */
export class GmaFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GmaFormatError';
  }
}

interface GmaFile {
  name: string;
  size: number;
}

/**
 * Reads the addon's files into the context. Throws (GmaFormatError or a truncation error)
 * only while the header and file table are read; trouble in the contents is a finding.
 */
export async function readGma(
  ctx: ReadingContext,
  source: AsyncIterable<Uint8Array>,
  prefix: string,
  depth: number,
): Promise<void> {
  const reader = new ByteStreamReader(source[Symbol.asyncIterator]());
  try {
    const files = await readFileTable(ctx, reader);
    await readContents(ctx, reader, files, prefix, depth);
  } finally {
    await reader.close();
  }
}

/** A .gma found inside another archive: a broken one is a finding, never a failure. */
export async function readNestedGma(
  ctx: ReadingContext,
  source: AsyncIterable<Uint8Array>,
  path: string,
  depth: number,
): Promise<void> {
  try {
    await readGma(ctx, source, path, depth);
  } catch (err) {
    if (isCancellation(err)) throw err;
    ctx.addFinding(
      'corrupt_entry',
      path,
      `unreadable .gma: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

async function readFileTable(ctx: ReadingContext, reader: ByteStreamReader): Promise<GmaFile[]> {
  const magic = await reader.readExact(4, 'GMA magic');
  if (Buffer.from(magic).toString('latin1') !== 'GMAD') throw new GmaFormatError('no GMAD magic');
  const version = (await reader.readExact(1, 'GMA version'))[0]!;
  if (version < 1 || version > HIGHEST_KNOWN_VERSION)
    throw new GmaFormatError(`unknown GMA version ${version}`);
  await reader.readExact(16, 'SteamID and timestamp');
  if (version > 1) {
    for (let i = 0; ; i++) {
      if (i > MAX_REQUIRED_CONTENT) throw new GmaFormatError('too many required-content strings');
      const required = await reader.readCString(MAX_HEADER_STRING_BYTES, 'required content');
      if (required === '') break;
    }
  }
  await reader.readCString(MAX_HEADER_STRING_BYTES, 'addon name');
  await reader.readCString(MAX_HEADER_STRING_BYTES, 'addon description');
  await reader.readCString(MAX_HEADER_STRING_BYTES, 'addon author');
  await reader.readExact(4, 'addon version');

  // The whole table must be walked to reach the contents, but only the entries that will
  // be read are kept: a hostile table cannot grow memory past the entry limit.
  const files: GmaFile[] = [];
  const keep = ctx.remainingEntries() + 1;
  for (;;) {
    const number = Buffer.from(await reader.readExact(4, 'file number')).readUInt32LE(0);
    if (number === 0) break;
    const name = await reader.readCString(MAX_FILE_NAME_BYTES, 'file name');
    const size = Buffer.from(await reader.readExact(8, 'file size')).readBigInt64LE(0);
    if (size < 0n || size > BigInt(Number.MAX_SAFE_INTEGER))
      throw new GmaFormatError(`file ${name} has an impossible size ${size}`);
    await reader.readExact(4, 'file CRC');
    if (files.length < keep) files.push({ name, size: Number(size) });
  }
  return files;
}

async function readContents(
  ctx: ReadingContext,
  reader: ByteStreamReader,
  files: GmaFile[],
  prefix: string,
  depth: number,
): Promise<void> {
  const archivePath = prefix === '' ? '(addon.gma)' : prefix;
  try {
    for (const file of files) {
      ctx.checkCancelled();
      if (ctx.stopped) return;
      const name = normaliseEntryName(file.name);
      const path = nestedPath(prefix, name.path);
      if (!ctx.takeEntry(path)) return;
      ctx.fileCount++;
      if (name.traversal)
        ctx.addFinding(
          'path_traversal',
          path,
          `name "${file.name}" climbs out of its folder with ..`,
        );
      if (name.absolute)
        ctx.addFinding('absolute_path', path, `name "${file.name}" is an absolute path`);
      const taken = { count: 0 };
      await analyseEntry(ctx, path, depth, reader.take(file.size, taken));
      if (ctx.stopped) return;
      const skipped = taken.count < file.size ? await reader.skip(file.size - taken.count) : 0;
      if (taken.count + skipped < file.size) {
        ctx.addFinding(
          'corrupt_entry',
          archivePath,
          `.gma ends inside ${name.path}: its file table promises more bytes than it holds`,
        );
        return;
      }
    }
  } catch (err) {
    if (isCancellation(err)) throw err;
    ctx.addFinding(
      'corrupt_entry',
      archivePath,
      `.gma contents unreadable: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
