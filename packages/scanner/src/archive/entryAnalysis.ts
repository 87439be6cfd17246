// Reads one file's bytes as they stream and decides, by content, what it is: Lua and text
// are kept, binary modules are hashed and stringed, maps give their entity lump, nested
// archives are opened, and every other asset is only counted (its bytes are dropped).
import { createHash, type Hash } from 'node:crypto';
import {
  executableFormat,
  extensionOf,
  isBinaryModuleName,
  isZipMagic,
  looksLikeLua,
  looksLikeText,
  startsWith,
} from './contentSniffing.js';
import { readBspHeader, type BspHeader } from './bspHeader.js';
import { readNestedGma } from './gmaReader.js';
import { isCancellation, type ReadingContext } from './readingContext.js';
import type { ArchiveEntry } from './types.js';
import { readNestedZip } from './zipReader.js';

/** Bytes gathered before deciding what a file is (a BSP header is 1036 bytes, a PE header sits early). */
const SNIFF_BYTES = 4096;
/** A map's entity lump kept at most (real ones are under a few MiB). */
const MAX_MAP_ENTITIES_BYTES = 16 * 1024 * 1024;
/** Printable strings kept per binary module, and their longest length. */
const MAX_MODULE_STRINGS = 2000;
const MAX_MODULE_STRING_LENGTH = 256;
const MIN_MODULE_STRING_LENGTH = 6;
/** Printable runs in binary assets: shortest worth keeping, and most kept per entry (GB-014). */
const MIN_ASSET_TEXT_RUN = 48;
const MAX_ASSET_TEXT_KEPT = 256 * 1024;
/** Bytes of the previous chunk looked at again, so runs and words across chunk borders are seen. */
const ASSET_RUN_CONTEXT = 4096;
/** Words that Lua hidden in an asset can hardly avoid (code-execution calls or plain structure). */
const LUA_NEEDLES = [
  'RunString',
  'CompileString',
  'loadstring',
  'http.Fetch',
  'function',
  'local ',
  'hook.Add',
  '_G[',
].map((word) => Buffer.from(word, 'latin1'));
/** BSP lump 40 is the pakfile, itself a ZIP of files the map ships (materials, sometimes Lua). */
const BSP_PAKFILE_LUMP = 40;

type EntryFields = Omit<ArchiveEntry, 'path' | 'size' | 'depth'>;

interface ContentCollector {
  /** Takes the next bytes; false when no more are wanted. */
  push(chunk: Uint8Array): boolean;
  finish(): EntryFields;
  /** Reads what the entry holds (nested archives), after its own record is stored. */
  descend?(): Promise<void>;
}

/**
 * Analyses one file of the archive. Never throws for bad content: an unreadable stream
 * becomes a `corrupt_entry` finding and whatever was read is still analysed.
 */
export async function analyseEntry(
  ctx: ReadingContext,
  path: string,
  depth: number,
  source: AsyncIterable<Uint8Array>,
): Promise<void> {
  const iterator = source[Symbol.asyncIterator]();
  let failure: string | undefined;
  let closed = false;
  const pull = async (): Promise<Uint8Array | undefined> => {
    if (failure !== undefined || closed) return undefined;
    try {
      const r = await iterator.next();
      return r.done ? undefined : r.value;
    } catch (err) {
      if (isCancellation(err)) throw err;
      failure = err instanceof Error ? err.message : String(err);
      return undefined;
    }
  };
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    try {
      await iterator.return?.(undefined);
    } catch {
      // The stream is being dropped; an error while tearing it down changes nothing.
    }
  };

  let size = 0;
  try {
    const headParts: Uint8Array[] = [];
    let ended = false;
    while (size < SNIFF_BYTES) {
      const chunk = await pull();
      if (!chunk) {
        ended = true;
        break;
      }
      headParts.push(chunk);
      size += chunk.length;
    }
    const head = headParts.length === 1 ? headParts[0]! : Buffer.concat(headParts);

    const plan = chooseCollector(ctx, path, depth, head);
    if (plan === 'gma') {
      ctx.entries.push({ path, size: 0, kind: 'asset', depth });
      const record = ctx.entries[ctx.entries.length - 1]!;
      const counted = { size };
      await readNestedGma(
        ctx,
        headThenRest(head, ended ? undefined : pull, counted),
        path,
        depth + 1,
      );
      size = counted.size;
      record.size = size;
    } else {
      let wantMore = head.length === 0 || plan.push(head);
      while (wantMore && !ended) {
        const chunk = await pull();
        if (!chunk) break;
        size += chunk.length;
        wantMore = plan.push(chunk);
      }
      await close();
      ctx.entries.push({ path, size, depth, ...plan.finish() });
      await plan.descend?.();
    }
    if (failure !== undefined)
      ctx.addFinding('corrupt_entry', path, `unreadable after ${size} bytes: ${failure}`);
  } finally {
    await close();
  }
}

/** The sniffed head, then the rest of the entry, counting bytes as they go. */
async function* headThenRest(
  head: Uint8Array,
  pull: (() => Promise<Uint8Array | undefined>) | undefined,
  counted: { size: number },
): AsyncGenerator<Uint8Array> {
  if (head.length > 0) yield head;
  if (!pull) return;
  for (;;) {
    const chunk = await pull();
    if (!chunk) return;
    counted.size += chunk.length;
    yield chunk;
  }
}

function chooseCollector(
  ctx: ReadingContext,
  path: string,
  depth: number,
  head: Uint8Array,
): ContentCollector | 'gma' {
  const extension = extensionOf(path);
  // A .lua file is Lua whatever it holds: the parser copes with garbage, and hiding there is the point.
  if (extension === 'lua') return new KeptTextCollector(ctx, path, true);

  const archive =
    extension === 'gma' || startsWith(head, 'GMAD')
      ? 'gma'
      : extension === 'zip' || isZipMagic(head)
        ? 'zip'
        : undefined;
  if (archive) {
    if (depth + 1 > ctx.limits.maxNestingDepth) {
      ctx.addFinding(
        'nested_too_deep',
        path,
        `archive nested deeper than ${ctx.limits.maxNestingDepth} levels; its contents were not read`,
      );
      return new AssetCollector(ctx);
    }
    return archive === 'gma' ? 'gma' : new NestedZipCollector(ctx, path, depth);
  }

  if (isBinaryModuleName(path) || executableFormat(head)) return new BinaryModuleCollector();
  if (extension === 'bsp' || startsWith(head, 'VBSP')) {
    const header = readBspHeader(head);
    if (typeof header !== 'string') return new MapCollector(ctx, path, depth, header);
    ctx.addFinding('corrupt_entry', path, `not a readable BSP map: ${header}`);
  }
  if (looksLikeText(head)) return new KeptTextCollector(ctx, path, false);
  return new AssetCollector(ctx);
}

/** Lua and other text: kept up to the per-entry and total limits. */
class KeptTextCollector implements ContentCollector {
  private readonly chunks: Uint8Array[] = [];
  private kept = 0;
  private readonly cap: number;
  private readonly capIsPerEntry: boolean;

  constructor(
    private readonly ctx: ReadingContext,
    private readonly path: string,
    private readonly isLuaFile: boolean,
  ) {
    const left = Math.max(0, ctx.limits.maxKeptTextBytes - ctx.keptTextBytes);
    this.capIsPerEntry = ctx.limits.maxTextEntryBytes <= left;
    this.cap = Math.min(ctx.limits.maxTextEntryBytes, left);
  }

  push(chunk: Uint8Array): boolean {
    const room = this.cap - this.kept;
    if (chunk.length > room) {
      this.keep(chunk.subarray(0, room));
      if (this.capIsPerEntry) {
        this.ctx.reachLimit(
          'maxTextEntryBytes',
          this.path,
          `text entry cut at ${this.cap} bytes; the rest was not read`,
        );
      } else {
        this.ctx.reachLimit(
          'maxKeptTextBytes',
          this.path,
          `${this.ctx.limits.maxKeptTextBytes} bytes of text already kept; this entry was cut at ${this.kept} bytes`,
        );
      }
      return false;
    }
    this.keep(chunk);
    return true;
  }

  private keep(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.kept += chunk.length;
  }

  finish(): EntryFields {
    const bytes = joinChunks(this.chunks, this.kept);
    this.chunks.length = 0;
    this.ctx.keptTextBytes += bytes.length;
    const kind = this.isLuaFile ? 'lua' : looksLikeLua(bytes) ? 'lua_in_asset' : 'text';
    // Hashes serve allowlisting and known-bad matching of code; plain text needs none.
    if (kind === 'text') return { kind, bytes };
    return { kind, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  }
}

/** Native code: hashed for allowlisting, printable strings kept for review (GB-011). */
class BinaryModuleCollector implements ContentCollector {
  private readonly hash: Hash = createHash('sha256');
  private readonly strings = new Set<string>();
  private run = '';
  private runLength = 0;

  push(chunk: Uint8Array): boolean {
    this.hash.update(chunk);
    if (this.strings.size >= MAX_MODULE_STRINGS) return true;
    for (const b of chunk) {
      if ((b >= 0x20 && b < 0x7f) || b === 0x09) {
        if (this.runLength < MAX_MODULE_STRING_LENGTH) this.run += String.fromCharCode(b);
        this.runLength++;
      } else if (this.runLength > 0) {
        this.endRun();
      }
    }
    return true;
  }

  private endRun(): void {
    if (this.runLength >= MIN_MODULE_STRING_LENGTH && this.strings.size < MAX_MODULE_STRINGS)
      this.strings.add(this.run);
    this.run = '';
    this.runLength = 0;
  }

  finish(): EntryFields {
    this.endRun();
    return { kind: 'binary_module', sha256: this.hash.digest('hex'), strings: [...this.strings] };
  }
}

/**
 * Any other file: bytes are dropped as they pass. Where a Lua word shows up (found with the
 * native byte search, so a 1 GiB of models costs little), the printable run around it is
 * kept, capped, so that Lua appended to an image or a sound is still found (GB-014).
 */
class AssetCollector implements ContentCollector {
  private readonly runs: Uint8Array[] = [];
  private keptLength = 0;
  /** End of the last kept run, in stream offsets: one run is kept once. */
  private keptUntil = 0;
  private tail: Buffer = Buffer.alloc(0);
  private position = 0;

  constructor(private readonly ctx: ReadingContext) {}

  push(chunk: Uint8Array): boolean {
    const chunkStart = this.position;
    this.position += chunk.length;
    if (this.keptLength >= MAX_ASSET_TEXT_KEPT) return true;
    // The previous chunk's tail rides along so a word or a run cut by the chunk border is whole.
    const view = Buffer.concat([this.tail, chunk]);
    const viewStart = chunkStart - this.tail.length;
    for (const needle of LUA_NEEDLES) {
      let from = Math.max(0, this.tail.length - needle.length + 1);
      for (;;) {
        const hit = view.indexOf(needle, from);
        if (hit === -1) break;
        from = hit + needle.length;
        if (viewStart + hit < this.keptUntil) continue;
        let left = hit;
        while (left > 0 && isPrintable(view[left - 1]!)) left--;
        let right = hit + needle.length;
        while (right < view.length && isPrintable(view[right]!)) right++;
        if (right - left < MIN_ASSET_TEXT_RUN) continue;
        this.keep(view.subarray(left, right));
        this.keptUntil = viewStart + right;
        from = right;
        if (this.keptLength >= MAX_ASSET_TEXT_KEPT) return true;
      }
    }
    this.tail = Buffer.from(view.subarray(Math.max(0, view.length - ASSET_RUN_CONTEXT)));
    return true;
  }

  private keep(run: Uint8Array): void {
    const room = MAX_ASSET_TEXT_KEPT - this.keptLength;
    const part = run.subarray(0, Math.max(0, room - 1));
    this.runs.push(Buffer.from(part), new Uint8Array([0x0a]));
    this.keptLength += part.length + 1;
  }

  finish(): EntryFields {
    if (this.runs.length > 0) {
      const bytes = joinChunks(this.runs, this.keptLength);
      if (looksLikeLua(bytes)) {
        this.ctx.keptTextBytes += bytes.length;
        return {
          kind: 'lua_in_asset',
          bytes,
          sha256: createHash('sha256').update(bytes).digest('hex'),
        };
      }
    }
    return { kind: 'asset' };
  }
}

function isPrintable(b: number): boolean {
  return (b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d;
}

/** A nested .zip: buffered (random access is needed), within the nested-archive memory budget. */
class NestedZipCollector implements ContentCollector {
  private chunks: Uint8Array[] = [];
  private held = 0;
  private overBudget = false;

  constructor(
    private readonly ctx: ReadingContext,
    private readonly path: string,
    private readonly depth: number,
  ) {}

  push(chunk: Uint8Array): boolean {
    const budget = Math.min(
      this.ctx.limits.maxNestedArchiveBytes - (this.ctx.nestedArchiveBytes - this.held),
      this.ctx.limits.maxArchiveBytes,
    );
    if (this.held + chunk.length > budget) {
      this.overBudget = true;
      this.release();
      this.ctx.reachLimit(
        'maxNestedArchiveBytes',
        this.path,
        `nested archive larger than the ${budget} bytes that may be held in memory; its contents were not read`,
      );
      return false;
    }
    this.chunks.push(chunk);
    this.held += chunk.length;
    this.ctx.nestedArchiveBytes += chunk.length;
    return true;
  }

  private release(): void {
    this.ctx.nestedArchiveBytes -= this.held;
    this.held = 0;
    this.chunks = [];
  }

  finish(): EntryFields {
    return { kind: 'asset' };
  }

  async descend(): Promise<void> {
    if (this.overBudget) return;
    const bytes = Buffer.concat(this.chunks);
    this.chunks = [];
    try {
      await readNestedZip(this.ctx, bytes, this.path, this.depth + 1);
    } finally {
      this.release();
    }
  }
}

/** A .bsp map: keeps the entity lump (GB-013) and the pakfile lump (a ZIP), drops the rest. */
class MapCollector implements ContentCollector {
  private position = 0;
  private readonly entityParts: Uint8Array[] = [];
  private readonly entityEnd: number;
  private readonly pakParts: Uint8Array[] = [];
  private readonly pakfile: { offset: number; end: number } | undefined;
  private pakHeld = 0;

  constructor(
    private readonly ctx: ReadingContext,
    private readonly path: string,
    private readonly depth: number,
    private readonly header: BspHeader,
  ) {
    const entities = header.lumps[0]!;
    if (entities.length > MAX_MAP_ENTITIES_BYTES) {
      ctx.reachLimit(
        'mapEntities',
        path,
        `entity lump cut at ${MAX_MAP_ENTITIES_BYTES} bytes of ${entities.length}`,
      );
    }
    this.entityEnd = entities.offset + Math.min(entities.length, MAX_MAP_ENTITIES_BYTES);
    const pak = header.lumps[BSP_PAKFILE_LUMP];
    if (pak && pak.length > 0) {
      if (depth + 1 > ctx.limits.maxNestingDepth) {
        ctx.addFinding(
          'nested_too_deep',
          path,
          'map pakfile nested too deep; its contents were not read',
        );
      } else if (pak.length > ctx.limits.maxNestedArchiveBytes - ctx.nestedArchiveBytes) {
        ctx.reachLimit(
          'maxNestedArchiveBytes',
          path,
          `map pakfile of ${pak.length} bytes is too large to open`,
        );
      } else {
        this.pakfile = { offset: pak.offset, end: pak.offset + pak.length };
      }
    }
  }

  push(chunk: Uint8Array): boolean {
    const start = this.position;
    const end = start + chunk.length;
    this.position = end;
    const entities = this.header.lumps[0]!;
    capture(chunk, start, end, entities.offset, this.entityEnd, this.entityParts);
    if (this.pakfile) {
      const before = this.pakHeld;
      this.pakHeld += capture(
        chunk,
        start,
        end,
        this.pakfile.offset,
        this.pakfile.end,
        this.pakParts,
      );
      this.ctx.nestedArchiveBytes += this.pakHeld - before;
    }
    return true;
  }

  finish(): EntryFields {
    const lump = Buffer.concat(this.entityParts);
    this.entityParts.length = 0;
    if (startsWith(lump, 'LZMA')) {
      this.ctx.addFinding(
        'corrupt_entry',
        this.path,
        'entity lump is LZMA-compressed; it was not read',
      );
      return { kind: 'map' };
    }
    let end = lump.length;
    while (end > 0 && lump[end - 1] === 0) end--;
    return { kind: 'map', mapEntities: lump.subarray(0, end).toString('utf8') };
  }

  async descend(): Promise<void> {
    if (!this.pakfile) return;
    const bytes = Buffer.concat(this.pakParts);
    this.pakParts.length = 0;
    try {
      if (bytes.length === this.pakfile.end - this.pakfile.offset && isZipMagic(bytes)) {
        await readNestedZip(this.ctx, bytes, this.path, this.depth + 1);
      } else if (bytes.length > 0) {
        this.ctx.addFinding('corrupt_entry', this.path, 'map pakfile lump is not a readable ZIP');
      }
    } finally {
      this.ctx.nestedArchiveBytes -= this.pakHeld;
      this.pakHeld = 0;
    }
  }
}

/** One fresh array of its own (never a view into a shared pool or a larger chunk). */
function joinChunks(chunks: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Copies the part of [start, end) that falls in [from, to) into parts; returns the bytes taken. */
function capture(
  chunk: Uint8Array,
  start: number,
  end: number,
  from: number,
  to: number,
  parts: Uint8Array[],
): number {
  const a = Math.max(start, from);
  const b = Math.min(end, to);
  if (a >= b) return 0;
  parts.push(chunk.subarray(a - start, b - start));
  return b - a;
}
