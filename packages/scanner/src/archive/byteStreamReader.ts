// Pull-style reading over a stream of chunks (headers by exact length, C strings, bounded
// sub-streams), so sequential formats such as GMA are parsed without holding them whole.

export class TruncatedDataError extends Error {
  constructor(what: string) {
    super(`unexpected end of data while reading ${what}`);
    this.name = 'TruncatedDataError';
  }
}

export class ByteStreamReader {
  private pending: Uint8Array | undefined;
  private ended = false;
  /** Bytes handed out so far. */
  position = 0;

  constructor(private readonly source: AsyncIterator<Uint8Array>) {}

  /** The next chunk, at most `max` bytes long; undefined at the end. */
  private async next(max: number): Promise<Uint8Array | undefined> {
    while (!this.pending || this.pending.length === 0) {
      if (this.ended) return undefined;
      const r = await this.source.next();
      if (r.done) {
        this.ended = true;
        return undefined;
      }
      this.pending = r.value;
    }
    let chunk = this.pending;
    if (chunk.length > max) {
      this.pending = chunk.subarray(max);
      chunk = chunk.subarray(0, max);
    } else {
      this.pending = undefined;
    }
    this.position += chunk.length;
    return chunk;
  }

  async readExact(n: number, what: string): Promise<Uint8Array> {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const chunk = await this.next(n - filled);
      if (!chunk) throw new TruncatedDataError(what);
      out.set(chunk, filled);
      filled += chunk.length;
    }
    return out;
  }

  /** A NUL-terminated string of at most maxBytes bytes (UTF-8). */
  async readCString(maxBytes: number, what: string): Promise<string> {
    const parts: Uint8Array[] = [];
    let length = 0;
    for (;;) {
      const chunk = await this.next(Number.MAX_SAFE_INTEGER);
      if (!chunk) throw new TruncatedDataError(what);
      const nul = chunk.indexOf(0);
      const end = nul === -1 ? chunk.length : nul;
      length += end;
      if (length > maxBytes) throw new Error(`${what} is longer than ${maxBytes} bytes`);
      parts.push(chunk.subarray(0, end));
      if (nul !== -1) {
        this.unread(chunk.subarray(nul + 1));
        return Buffer.concat(parts).toString('utf8');
      }
    }
  }

  /** Yields exactly the next n bytes (fewer only if the data ends); `taken.count` says how many went out. */
  async *take(n: number, taken: { count: number }): AsyncGenerator<Uint8Array> {
    while (taken.count < n) {
      const chunk = await this.next(n - taken.count);
      if (!chunk) return;
      taken.count += chunk.length;
      yield chunk;
    }
  }

  /** Skips up to n bytes; returns how many were skipped. */
  async skip(n: number): Promise<number> {
    let skipped = 0;
    while (skipped < n) {
      const chunk = await this.next(n - skipped);
      if (!chunk) break;
      skipped += chunk.length;
    }
    return skipped;
  }

  async close(): Promise<void> {
    this.pending = undefined;
    this.ended = true;
    await this.source.return?.();
  }

  private unread(rest: Uint8Array): void {
    this.position -= rest.length;
    this.pending = rest.length > 0 ? rest : undefined;
  }
}
