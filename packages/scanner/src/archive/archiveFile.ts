// Random access to an archive file on disk for yauzl, through a small block cache: central
// directories and local headers come in many tiny reads, one system call each without it.
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import yauzl from 'yauzl';

const BLOCK_BYTES = 1024 * 1024;
/** A few blocks: the central directory being walked and the entry being read. */
const MAX_CACHED_BLOCKS = 4;
const STREAM_CHUNK_BYTES = 64 * 1024;

type ReadCallback = (err: Error | null, bytesRead?: number) => void;

export class CachedArchiveFile extends yauzl.RandomAccessReader {
  private readonly blocks = new Map<number, Promise<Buffer>>();
  private closed = false;

  private constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {
    super();
  }

  static async open(path: string): Promise<CachedArchiveFile> {
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      return new CachedArchiveFile(handle, size);
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  /** Bytes [position, position + length), fewer at the end of the file. */
  async readAt(position: number, length: number): Promise<Buffer> {
    const end = Math.min(this.size, position + length);
    if (end <= position) return Buffer.alloc(0);
    if (end - position > BLOCK_BYTES) {
      const buffer = Buffer.alloc(end - position);
      const { bytesRead } = await this.handle.read(buffer, 0, buffer.length, position);
      return buffer.subarray(0, bytesRead);
    }
    const firstIndex = Math.floor(position / BLOCK_BYTES);
    if (end <= (firstIndex + 1) * BLOCK_BYTES) {
      // Within one block: a view, no copy (callers copy whatever they keep).
      const block = await this.block(firstIndex);
      const blockStart = firstIndex * BLOCK_BYTES;
      return block.subarray(position - blockStart, end - blockStart);
    }
    const out = Buffer.alloc(end - position);
    for (let index = firstIndex; index * BLOCK_BYTES < end; index++) {
      const block = await this.block(index);
      const blockStart = index * BLOCK_BYTES;
      const from = Math.max(position, blockStart);
      const to = Math.min(end, blockStart + block.length);
      if (to > from) block.copy(out, from - position, from - blockStart, to - blockStart);
    }
    return out;
  }

  private block(index: number): Promise<Buffer> {
    const cached = this.blocks.get(index);
    if (cached) {
      // Most recently used goes last; the first key is the one evicted.
      this.blocks.delete(index);
      this.blocks.set(index, cached);
      return cached;
    }
    const loading = (async () => {
      const buffer = Buffer.alloc(BLOCK_BYTES);
      const { bytesRead } = await this.handle.read(buffer, 0, BLOCK_BYTES, index * BLOCK_BYTES);
      return buffer.subarray(0, bytesRead);
    })();
    this.blocks.set(index, loading);
    if (this.blocks.size > MAX_CACHED_BLOCKS) this.blocks.delete(this.blocks.keys().next().value!);
    return loading;
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: ReadCallback,
  ): void {
    this.readAt(position, length).then(
      (bytes) => {
        bytes.copy(buffer, offset);
        callback(null, bytes.length);
      },
      (err: Error) => callback(err),
    );
  }

  // yauzl's typings declare these as returning void; the library itself uses the stream.
  override _readStreamForRange(start: number, end: number): void;
  override _readStreamForRange(start: number, end: number): Readable {
    // Not an fs stream: destroying one of those closes the shared descriptor.
    return Readable.from(this.range(start, end), { objectMode: false });
  }

  private async *range(start: number, end: number): AsyncGenerator<Buffer> {
    for (let position = start; position < end;) {
      const buffer = Buffer.allocUnsafe(Math.min(STREAM_CHUNK_BYTES, end - position));
      const { bytesRead } = await this.handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  }

  override close(callback: (err: Error | null) => void): void {
    void this.release().then(() => callback(null), callback);
  }

  async release(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.blocks.clear();
    await this.handle.close();
  }
}
