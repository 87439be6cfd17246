// SQLite as a decoder: a query that reads no table and only selects literals
// (`SELECT CAST(X'7072696E74' AS TEXT) AS src`) gives back text the addon never writes out,
// decoded by the database engine. Evaluated here as string.char runs are, so that what it
// gives a CompileString is analysed as code (GB-026).

/** One selected column: its name (the `AS` alias, else the expression as written) and text. */
export interface SelectedColumn {
  name: string;
  text: string;
}

/** Longest query evaluated: the payloads worth decoding fit, and the cost stays bounded. */
const MAX_QUERY = 200_000;

/**
 * The columns of `SELECT <expr> [AS name], …` with no FROM, each expression made of string
 * literals, hex blobs (`X'…'`), numbers, `char(n, …)`, `unhex('…')`, `CAST(… AS TEXT|BLOB)`
 * and `||`. Undefined for any other query: a table read, a function not evaluated here.
 */
export function selectedLiterals(query: string): SelectedColumn[] | undefined {
  if (query.length > MAX_QUERY) return undefined;
  const p = new Reader(query);
  p.space();
  if (!p.word('select')) return undefined;
  const out: SelectedColumn[] = [];
  for (;;) {
    p.space();
    const start = p.at;
    const text = p.concat();
    if (text === undefined) return undefined;
    const written = query.slice(start, p.at).trim();
    p.space();
    let name = written;
    if (p.word('as')) {
      p.space();
      const alias = p.name();
      if (alias === undefined) return undefined;
      name = alias;
      p.space();
    }
    out.push({ name, text });
    if (!p.take(',')) break;
  }
  p.take(';');
  p.space();
  return p.at === query.length ? out : undefined;
}

class Reader {
  at = 0;
  constructor(private readonly s: string) {}

  space(): void {
    while (this.at < this.s.length && /\s/.test(this.s[this.at]!)) this.at++;
  }

  take(c: string): boolean {
    this.space();
    if (this.s[this.at] !== c) return false;
    this.at++;
    return true;
  }

  /** A keyword, case-insensitive, not followed by more of a name. */
  word(w: string): boolean {
    const end = this.at + w.length;
    if (this.s.slice(this.at, end).toLowerCase() !== w) return false;
    if (/[\w$]/.test(this.s[end] ?? '')) return false;
    this.at = end;
    return true;
  }

  name(): string | undefined {
    const m = /^(?:[A-Za-z_][\w$]*|"[^"]*"|`[^`]*`|\[[^\]]*\])/.exec(
      this.s.slice(this.at, this.at + 256),
    );
    if (!m) return undefined;
    this.at += m[0].length;
    return /^["`[]/.test(m[0]) ? m[0].slice(1, -1) : m[0];
  }

  /** `a || b || …` */
  concat(): string | undefined {
    let text = this.term();
    if (text === undefined) return undefined;
    for (;;) {
      this.space();
      if (this.s.startsWith('||', this.at)) {
        this.at += 2;
        const next = this.term();
        if (next === undefined) return undefined;
        text += next;
      } else return text;
    }
  }

  private term(): string | undefined {
    this.space();
    const c = this.s[this.at];
    if (c === '(') {
      this.at++;
      const inner = this.concat();
      return inner !== undefined && this.take(')') ? inner : undefined;
    }
    if (c === "'") return this.quoted();
    if ((c === 'x' || c === 'X') && this.s[this.at + 1] === "'") {
      this.at++;
      const hex = this.quoted();
      return hex === undefined ? undefined : fromHex(hex);
    }
    const num = /^-?\d+(?:\.\d+)?/.exec(this.s.slice(this.at, this.at + 64));
    if (num) {
      this.at += num[0].length;
      return num[0];
    }
    if (this.word('cast')) {
      if (!this.take('(')) return undefined;
      const inner = this.concat();
      this.space();
      if (inner === undefined || !this.word('as')) return undefined;
      this.space();
      const type = this.name()?.toLowerCase();
      // (TEXT and BLOB keep the bytes; a number type would make them something else.)
      if (type !== 'text' && type !== 'blob' && type !== 'varchar') return undefined;
      return this.take(')') ? inner : undefined;
    }
    if (this.word('char')) {
      if (!this.take('(')) return undefined;
      let text = '';
      do {
        this.space();
        const n = /^\d+/.exec(this.s.slice(this.at, this.at + 16));
        if (!n) return undefined;
        this.at += n[0].length;
        text += String.fromCodePoint(Math.min(Number(n[0]), 0x10ffff));
      } while (this.take(','));
      return this.take(')') ? text : undefined;
    }
    if (this.word('unhex')) {
      if (!this.take('(')) return undefined;
      this.space();
      const hex = this.concat();
      return hex !== undefined && this.take(')') ? fromHex(hex) : undefined;
    }
    return undefined;
  }

  /** A single-quoted SQL string (`''` for a quote), the reader past it. */
  private quoted(): string | undefined {
    let text = '';
    let i = this.at + 1;
    for (;;) {
      const end = this.s.indexOf("'", i);
      if (end < 0) return undefined;
      text += this.s.slice(i, end);
      if (this.s[end + 1] === "'") {
        text += "'";
        i = end + 2;
        continue;
      }
      this.at = end + 1;
      return text;
    }
  }
}

/** Hex digits as the bytes they spell (one character per byte), or undefined. */
function fromHex(hex: string): string | undefined {
  if (hex.length % 2 !== 0 || /[^0-9a-fA-F]/.test(hex)) return undefined;
  return Buffer.from(hex, 'hex').toString('latin1');
}
