// Reads one file's bytes as they stream and decides, by content, what it is: Lua and text
// are kept, binary modules are hashed and stringed, maps give their entity lump, nested
// archives are opened, and every other asset is only counted (its bytes are dropped).
import { createHash, hash, type Hash } from 'node:crypto';
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
/** Most bytes of a printable run carried from one chunk to the next; longer runs are judged in parts. */
const MAX_OPEN_RUN = 64 * 1024;
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
];
const LONGEST_NEEDLE = Math.max(...LUA_NEEDLES.map((needle) => needle.length));
/**
 * Any of LUA_NEEDLES, searched in a run's Latin-1 text (one character per byte, so the same
 * matches as in its bytes): one regex pass per run, where eight Buffer searches each set up
 * their own search and cost about three times as much on the corpus's 2 910 runs.
 */
const LUA_NEEDLE = new RegExp(
  LUA_NEEDLES.map((needle) => needle.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')).join('|'),
);
/** A stretch of base64 long enough to hold a line of code (48 bytes once decoded). */
const BASE64_STRETCH = /[A-Za-z0-9+/]{64,}={0,2}/g;

/** BSP lump 40 is the pakfile, itself a ZIP of files the map ships (materials, sometimes Lua). */
const BSP_PAKFILE_LUMP = 40;

type Pulled = Uint8Array | undefined;

interface ContentCollector {
  /** Takes the next bytes; false when no more are wanted. */
  push(chunk: Uint8Array): boolean;
  /**
   * The entry's record, written out as one literal per kind (path, size and depth first):
   * spreading a kind's fields into a record cost a generic property copy per file.
   */
  finish(path: string, size: number, depth: number): ArchiveEntry;
  /** Reads what the entry holds (nested archives), after its own record is stored. */
  descend?(): Promise<void>;
}

/**
 * Analyses one file of the archive. Never throws for bad content: an unreadable stream
 * becomes a `corrupt_entry` finding and whatever was read is still analysed. Resolves to
 * true when the bytes were only counted: a plain asset, with no text, code or archive in it.
 */
export async function analyseEntry(
  ctx: ReadingContext,
  path: string,
  depth: number,
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): Promise<boolean> {
  const iterator: AsyncIterator<Uint8Array> | Iterator<Uint8Array> =
    Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  let failure: string | undefined;
  let closed = false;
  const settle = (r: IteratorResult<Uint8Array>): Pulled => (r.done ? undefined : r.value);
  const fail = (err: unknown): undefined => {
    if (isCancellation(err)) throw err;
    failure = err instanceof Error ? err.message : String(err);
    return undefined;
  };
  // A plain iterable (a file read whole, a small ZIP entry) is pulled without a promise.
  const pull = (): Pulled | Promise<Pulled> => {
    if (failure !== undefined || closed) return undefined;
    try {
      const r = iterator.next();
      return r instanceof Promise ? r.then(settle, fail) : settle(r);
    } catch (err) {
      return fail(err);
    }
  };
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    try {
      const r = iterator.return?.(undefined);
      if (r instanceof Promise) await r;
    } catch {
      // The stream is being dropped; an error while tearing it down changes nothing.
    }
  };

  let size = 0;
  let onlyCounted = false;
  try {
    const headParts: Uint8Array[] = [];
    let ended = false;
    while (size < SNIFF_BYTES) {
      const pulled = pull();
      const chunk = pulled instanceof Promise ? await pulled : pulled;
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
        headThenRest(head, ended ? undefined : async () => pull(), counted),
        path,
        depth + 1,
      );
      size = counted.size;
      record.size = size;
    } else {
      let wantMore = head.length === 0 || plan.push(head);
      while (wantMore && !ended) {
        const pulled = pull();
        const chunk = pulled instanceof Promise ? await pulled : pulled;
        if (!chunk) break;
        size += chunk.length;
        wantMore = plan.push(chunk);
      }
      if (!closed) await close();
      const entry = plan.finish(path, size, depth);
      ctx.entries.push(entry);
      onlyCounted = plan instanceof AssetCollector && entry.kind === 'asset';
      await plan.descend?.();
    }
    if (failure !== undefined)
      ctx.addFinding('corrupt_entry', path, `unreadable after ${size} bytes: ${failure}`);
  } finally {
    if (!closed) await close();
  }
  return onlyCounted;
}

/**
 * analyseEntry for an entry whose bytes are all at hand (a file read whole): the same
 * decisions and records, without a promise unless an archive inside must be read. Kept
 * apart from analyseEntry so that the path thousands of small files take stays small.
 */
export function analyseWholeEntry(
  ctx: ReadingContext,
  path: string,
  depth: number,
  bytes: Uint8Array,
): boolean | Promise<boolean> {
  const plan = chooseCollector(ctx, path, depth, bytes);
  if (plan === 'gma') {
    const record: ArchiveEntry = { path, size: bytes.length, kind: 'asset', depth };
    ctx.entries.push(record);
    return readNestedGma(ctx, headThenRest(bytes, undefined, { size: 0 }), path, depth + 1).then(
      () => false,
    );
  }
  if (plan instanceof KeptTextCollector) {
    // Lua and text, most of the files: one copy, no list of chunks.
    ctx.entries.push(plan.finishWhole(bytes, path, depth));
    return false;
  }
  if (bytes.length > 0) plan.push(bytes);
  const entry = plan.finish(path, bytes.length, depth);
  ctx.entries.push(entry);
  const onlyCounted = plan instanceof AssetCollector && entry.kind === 'asset';
  return plan.descend ? plan.descend().then(() => onlyCounted) : onlyCounted;
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
      this.reportCut();
      return false;
    }
    this.keep(chunk);
    return true;
  }

  /** push(bytes), then finish(), for an entry whose bytes are all at hand. */
  finishWhole(bytes: Uint8Array, path: string, depth: number): ArchiveEntry {
    let kept = bytes;
    if (bytes.length > this.cap) {
      kept = bytes.subarray(0, this.cap);
      this.kept = kept.length;
      this.reportCut();
    }
    return this.entry(copyOf(kept), path, bytes.length, depth);
  }

  private reportCut(): void {
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
  }

  private keep(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.kept += chunk.length;
  }

  finish(path: string, size: number, depth: number): ArchiveEntry {
    // The collector is dropped with its chunks once the record is made.
    return this.entry(joinChunks(this.chunks, this.kept), path, size, depth);
  }

  private entry(bytes: Uint8Array, path: string, size: number, depth: number): ArchiveEntry {
    this.ctx.keptTextBytes += bytes.length;
    const kind = this.isLuaFile ? 'lua' : looksLikeLua(bytes) ? 'lua_in_asset' : 'text';
    // Hashes serve allowlisting and known-bad matching of code; plain text needs none.
    if (kind === 'text') return { path, size, depth, kind, bytes };
    return { path, size, depth, kind, bytes, sha256: sha256Hex(bytes) };
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
    const bytes = asBuffer(chunk);
    const n = bytes.length;
    let start = 0;
    for (let i = 0; i < n; i++) {
      if (STRING_BYTE[bytes[i]!] === 1) continue;
      // Most runs in machine code are a byte or two: they end here without becoming strings.
      if (this.runLength > 0 || i - start >= MIN_MODULE_STRING_LENGTH) {
        this.extendRun(bytes, start, i);
        this.endRun();
        if (this.strings.size >= MAX_MODULE_STRINGS) return true;
      }
      start = i + 1;
    }
    // A run reaching the end of the chunk may go on in the next one.
    if (n > start) this.extendRun(bytes, start, n);
    return true;
  }

  private extendRun(bytes: Buffer, start: number, end: number): void {
    const room = MAX_MODULE_STRING_LENGTH - this.run.length;
    if (room > 0) this.run += bytes.toString('latin1', start, Math.min(end, start + room));
    this.runLength += end - start;
  }

  private endRun(): void {
    if (this.runLength >= MIN_MODULE_STRING_LENGTH && this.strings.size < MAX_MODULE_STRINGS)
      this.strings.add(this.run);
    this.run = '';
    this.runLength = 0;
  }

  finish(path: string, size: number, depth: number): ArchiveEntry {
    this.endRun();
    const sha256 = this.hash.digest('hex');
    return { path, size, depth, kind: 'binary_module', sha256, strings: [...this.strings] };
  }
}

/**
 * Any other file: bytes are dropped as they pass. Every printable run of at least
 * MIN_ASSET_TEXT_RUN bytes that holds a Lua word is kept, capped, so that Lua appended to an
 * image or a sound is still found (GB-014). Runs are found by looking at one byte in
 * MIN_ASSET_TEXT_RUN (any run that long covers one of them), so a 1 GiB of models costs little.
 */
class AssetCollector implements ContentCollector {
  private readonly runs: Uint8Array[] = [];
  private keptLength = 0;
  /** The printable run reaching the end of the previous chunk, copied, at most MAX_OPEN_RUN bytes. */
  private open: Uint8Array[] = [];
  private openLength = 0;
  /** The open run follows a part already judged (a run longer than MAX_OPEN_RUN). */
  private openContinues = false;

  constructor(private readonly ctx: ReadingContext) {}

  push(chunk: Uint8Array): boolean {
    if (this.keptLength >= MAX_ASSET_TEXT_KEPT) return true;
    const bytes = asBuffer(chunk);
    const n = bytes.length;
    let from = 0;
    if (this.openLength > 0) {
      while (from < n && PRINTABLE[bytes[from]!] === 1) from++;
      this.extendOpenRun(bytes.subarray(0, from));
      if (from === n) return true;
      this.judgeOpenRun();
      from++;
    }
    const lastOfFour = n - 3 * MIN_ASSET_TEXT_RUN;
    for (let probe = from + MIN_ASSET_TEXT_RUN - 1; probe < n;) {
      // Four probes a turn while they fit: most probes of a model or a texture miss, and
      // one loop turn per probe cost more than the probe.
      while (
        probe < lastOfFour &&
        (PRINTABLE[bytes[probe]!]! |
          PRINTABLE[bytes[probe + MIN_ASSET_TEXT_RUN]!]! |
          PRINTABLE[bytes[probe + 2 * MIN_ASSET_TEXT_RUN]!]! |
          PRINTABLE[bytes[probe + 3 * MIN_ASSET_TEXT_RUN]!]!) ===
          0
      ) {
        probe += 4 * MIN_ASSET_TEXT_RUN;
      }
      if (probe >= n) break;
      if (PRINTABLE[bytes[probe]!] !== 1) {
        probe += MIN_ASSET_TEXT_RUN;
        continue;
      }
      let left = probe;
      while (left > from && PRINTABLE[bytes[left - 1]!] === 1) left--;
      let right = probe + 1;
      while (right < n && PRINTABLE[bytes[right]!] === 1) right++;
      if (right === n) {
        this.extendOpenRun(bytes.subarray(left));
        return true;
      }
      // Most probes hit a stray printable byte: no view is made for runs too short.
      if (right - left >= MIN_ASSET_TEXT_RUN) {
        this.judge(bytes.subarray(left, right));
        if (this.keptLength >= MAX_ASSET_TEXT_KEPT) return true;
      }
      from = right + 1;
      probe = from + MIN_ASSET_TEXT_RUN - 1;
    }
    // A run too short to meet a probe yet may go on in the next chunk.
    let tail = n;
    while (tail > from && PRINTABLE[bytes[tail - 1]!] === 1) tail--;
    if (tail < n) this.extendOpenRun(bytes.subarray(tail));
    return true;
  }

  /** Keeps the run if it is long enough and holds a Lua word. */
  private judge(run: Buffer, continues = false): void {
    if (this.keptLength >= MAX_ASSET_TEXT_KEPT) return;
    if (!continues && run.length < MIN_ASSET_TEXT_RUN) return;
    const text = run.toString('latin1');
    if (LUA_NEEDLE.test(text)) this.keep(run);
    else this.keepEncodedLua(text);
  }

  /**
   * Lua written in base64 inside the run (a Vorbis comment `ZONECFG=<base64>`, a JPEG comment,
   * a PNG text chunk): kept decoded, as the loader that reads the tag will run it (GB-014 with
   * GB-026). A stretch is tried at each of the four alignments, since letters before it (a
   * tag's name) may run into it.
   */
  private keepEncodedLua(text: string): void {
    BASE64_STRETCH.lastIndex = 0;
    let tries = 0;
    for (
      let m = BASE64_STRETCH.exec(text);
      m !== null && tries < 16;
      m = BASE64_STRETCH.exec(text)
    ) {
      tries++;
      for (let shift = 0; shift < 4; shift++) {
        const decoded = Buffer.from(m[0].slice(shift), 'base64');
        const plain = decoded.toString('latin1');
        if (LUA_NEEDLE.test(plain) && looksLikeText(decoded)) {
          this.keep(decoded);
          break;
        }
      }
    }
  }

  private extendOpenRun(part: Buffer): void {
    let rest = part;
    while (rest.length > 0) {
      const room = MAX_OPEN_RUN - this.openLength;
      const taken = rest.subarray(0, room);
      this.open.push(Buffer.from(taken));
      this.openLength += taken.length;
      rest = rest.subarray(taken.length);
      if (this.openLength < MAX_OPEN_RUN) return;
      // A run this long is judged in parts; each part starts with the end of the one before,
      // so a word across the cut is still whole in one of them.
      const judged = this.judgeOpenRun();
      this.openContinues = true;
      const overlap = judged.subarray(judged.length - (LONGEST_NEEDLE - 1));
      this.open.push(overlap);
      this.openLength = overlap.length;
    }
  }

  /** Judges the open run as it stands and forgets it; returns its bytes. */
  private judgeOpenRun(): Buffer {
    const run = Buffer.concat(this.open, this.openLength);
    this.judge(run, this.openContinues);
    this.open = [];
    this.openLength = 0;
    this.openContinues = false;
    return run;
  }

  private keep(run: Uint8Array): void {
    const room = MAX_ASSET_TEXT_KEPT - this.keptLength;
    const part = run.subarray(0, Math.max(0, room - 1));
    this.runs.push(Buffer.from(part), new Uint8Array([0x0a]));
    this.keptLength += part.length + 1;
  }

  finish(path: string, size: number, depth: number): ArchiveEntry {
    if (this.openLength > 0 && this.keptLength < MAX_ASSET_TEXT_KEPT) this.judgeOpenRun();
    if (this.runs.length > 0) {
      const bytes = joinChunks(this.runs, this.keptLength);
      if (looksLikeLua(bytes)) {
        this.ctx.keptTextBytes += bytes.length;
        const sha256 = sha256Hex(bytes);
        return { path, size, depth, kind: 'lua_in_asset', bytes, sha256 };
      }
    }
    return { path, size, depth, kind: 'asset' };
  }
}

/** 1 for the bytes a text run is made of: printable ASCII, tab, line feed, carriage return. */
const PRINTABLE = new Uint8Array(256).map((_, b) =>
  (b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d ? 1 : 0,
);

/** 1 for the bytes a module string is made of: printable ASCII and tab. */
const STRING_BYTE = new Uint8Array(256).map((_, b) =>
  (b >= 0x20 && b < 0x7f) || b === 0x09 ? 1 : 0,
);

/** A view of the same bytes with Buffer's native search. */
function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk)
    ? chunk
    : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
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

  finish(path: string, size: number, depth: number): ArchiveEntry {
    return { path, size, depth, kind: 'asset' };
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

  finish(path: string, size: number, depth: number): ArchiveEntry {
    const lump = Buffer.concat(this.entityParts);
    this.entityParts.length = 0;
    if (startsWith(lump, 'LZMA')) {
      this.ctx.addFinding(
        'corrupt_entry',
        this.path,
        'entity lump is LZMA-compressed; it was not read',
      );
      return { path, size, depth, kind: 'map' };
    }
    let end = lump.length;
    while (end > 0 && lump[end - 1] === 0) end--;
    const mapEntities = lump.subarray(0, end).toString('utf8');
    return { path, size, depth, kind: 'map', mapEntities };
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

/** SHA-256 hex of bytes held whole; the one-shot call costs half of a hash object per small file. */
export function sha256Hex(bytes: Uint8Array): string {
  return hash('sha256', bytes, 'hex');
}

/** One fresh array of its own (never a view into a shared pool or a larger chunk). */
function copyOf(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(Buffer.allocUnsafeSlow(bytes.length).buffer, 0, bytes.length);
  out.set(bytes);
  return out;
}

/** The chunks copied into one fresh array of its own, as copyOf. */
function joinChunks(chunks: Uint8Array[], length: number): Uint8Array {
  // Not zero-filled first: every byte is written below.
  const out = new Uint8Array(Buffer.allocUnsafeSlow(length).buffer, 0, length);
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
