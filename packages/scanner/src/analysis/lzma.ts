// `util.Decompress`: Garry's Mod compresses with LZMA in the "alone" format (5 bytes of
// properties, the unpacked size on 8 bytes, then the range-coded stream). Backdoors ship code
// as base64 of such data, so the analysis unpacks it as the game would, within a size cap.
// Written from the LZMA specification (the SDK's LzmaSpec decoder), as a plain state machine.

const PROB_INIT = 1024;
const NUM_STATES = 12;
const POS_BITS_MAX = 4;
const LEN_TO_POS_STATES = 4;
const END_POS_MODEL_INDEX = 14;
const NUM_FULL_DISTANCES = 128;
const NUM_ALIGN_BITS = 4;
const MATCH_MIN_LEN = 2;

/** A stream that does not decode (bad header, corrupt data, too large): undefined. */
class Corrupt extends Error {}

class RangeDecoder {
  private range = 0xffffffff;
  private code = 0;
  pos: number;

  constructor(
    private readonly src: Uint8Array,
    start: number,
  ) {
    if (src[start] !== 0) throw new Corrupt();
    this.pos = start + 1;
    for (let i = 0; i < 4; i++) this.code = ((this.code << 8) | this.next()) >>> 0;
    if (this.code === this.range) throw new Corrupt();
  }

  private next(): number {
    if (this.pos >= this.src.length) throw new Corrupt();
    return this.src[this.pos++]!;
  }

  private normalize(): void {
    if (this.range < 0x1000000) {
      this.range = (this.range << 8) >>> 0;
      this.code = ((this.code << 8) | this.next()) >>> 0;
    }
  }

  finishedOk(): boolean {
    return this.code === 0;
  }

  bit(probs: Uint16Array, i: number): number {
    const p = probs[i]!;
    const bound = (this.range >>> 11) * p;
    let bit: number;
    if (this.code < bound) {
      probs[i] = p + ((2048 - p) >>> 5);
      this.range = bound >>> 0;
      bit = 0;
    } else {
      probs[i] = p - (p >>> 5);
      this.code = (this.code - bound) >>> 0;
      this.range = (this.range - bound) >>> 0;
      bit = 1;
    }
    this.normalize();
    return bit;
  }

  direct(numBits: number): number {
    let res = 0;
    for (; numBits > 0; numBits--) {
      this.range >>>= 1;
      this.code = (this.code - this.range) >>> 0;
      const borrow = this.code >>> 31;
      if (borrow) this.code = (this.code + this.range) >>> 0;
      this.normalize();
      res = ((res << 1) | (borrow ^ 1)) >>> 0;
    }
    return res;
  }

  tree(probs: Uint16Array, base: number, numBits: number): number {
    let m = 1;
    for (let i = 0; i < numBits; i++) m = (m << 1) + this.bit(probs, base + m);
    return m - (1 << numBits);
  }

  reverseTree(probs: Uint16Array, base: number, numBits: number): number {
    let m = 1;
    let symbol = 0;
    for (let i = 0; i < numBits; i++) {
      const bit = this.bit(probs, base + m);
      m = (m << 1) + bit;
      symbol |= bit << i;
    }
    return symbol;
  }
}

/** A length coder: choice bits, then 3 low or mid bits per position state, or 8 high bits. */
class LenDecoder {
  private readonly choice = new Uint16Array(2).fill(PROB_INIT);
  private readonly low = new Uint16Array((1 << POS_BITS_MAX) << 3).fill(PROB_INIT);
  private readonly mid = new Uint16Array((1 << POS_BITS_MAX) << 3).fill(PROB_INIT);
  private readonly high = new Uint16Array(256).fill(PROB_INIT);

  decode(rc: RangeDecoder, posState: number): number {
    if (rc.bit(this.choice, 0) === 0) return rc.tree(this.low, posState << 3, 3);
    if (rc.bit(this.choice, 1) === 0) return 8 + rc.tree(this.mid, posState << 3, 3);
    return 16 + rc.tree(this.high, 0, 8);
  }
}

/**
 * The bytes `util.Decompress` gives for `data`, or undefined when it is not an LZMA stream or
 * would unpack to more than `maxOut` bytes.
 */
export function lzmaDecompress(data: Uint8Array, maxOut: number): Uint8Array | undefined {
  try {
    return decode(data, maxOut);
  } catch (e) {
    if (e instanceof Corrupt) return undefined;
    throw e;
  }
}

function decode(data: Uint8Array, maxOut: number): Uint8Array | undefined {
  if (data.length < 13 + 5) return undefined;
  let d = data[0]!;
  if (d >= 9 * 5 * 5) return undefined;
  const lc = d % 9;
  d = (d / 9) | 0;
  const lp = d % 5;
  const pb = (d / 5) | 0;
  let dictSize = 0;
  for (let i = 0; i < 4; i++) dictSize += data[1 + i]! * 2 ** (8 * i);
  dictSize = Math.max(dictSize, 1 << 12);
  // The unpacked size: all ones when unknown (the stream then ends with a marker).
  let size = 0;
  let sizeKnown = false;
  for (let i = 0; i < 8; i++) if (data[5 + i] !== 0xff) sizeKnown = true;
  if (sizeKnown) {
    for (let i = 0; i < 8; i++) size += data[5 + i]! * 2 ** (8 * i);
    if (size > maxOut) return undefined;
  }
  const limit = sizeKnown ? size : maxOut;
  const out = new Uint8Array(Math.min(limit, 1 << 16));
  let buf = out;
  let total = 0;
  const put = (b: number): void => {
    if (total >= buf.length) {
      if (buf.length >= limit) throw new Corrupt();
      const bigger = new Uint8Array(Math.min(limit, buf.length * 2));
      bigger.set(buf);
      buf = bigger;
    }
    buf[total++] = b;
  };
  const back = (dist: number): number => {
    if (dist > total) throw new Corrupt();
    return buf[total - dist]!;
  };

  const rc = new RangeDecoder(data, 13);
  const literals = new Uint16Array(0x300 << (lc + lp)).fill(PROB_INIT);
  const posSlots = new Uint16Array(LEN_TO_POS_STATES << 6).fill(PROB_INIT);
  const posDecoders = new Uint16Array(1 + NUM_FULL_DISTANCES - END_POS_MODEL_INDEX).fill(PROB_INIT);
  const align = new Uint16Array(1 << NUM_ALIGN_BITS).fill(PROB_INIT);
  const isMatch = new Uint16Array(NUM_STATES << POS_BITS_MAX).fill(PROB_INIT);
  const isRep = new Uint16Array(NUM_STATES).fill(PROB_INIT);
  const isRepG0 = new Uint16Array(NUM_STATES).fill(PROB_INIT);
  const isRepG1 = new Uint16Array(NUM_STATES).fill(PROB_INIT);
  const isRepG2 = new Uint16Array(NUM_STATES).fill(PROB_INIT);
  const isRep0Long = new Uint16Array(NUM_STATES << POS_BITS_MAX).fill(PROB_INIT);
  const lenDecoder = new LenDecoder();
  const repLenDecoder = new LenDecoder();
  let rep0 = 0;
  let rep1 = 0;
  let rep2 = 0;
  let rep3 = 0;
  let state = 0;
  const pbMask = (1 << pb) - 1;
  const lpMask = (1 << lp) - 1;

  for (;;) {
    if (sizeKnown && total === size && rc.finishedOk()) break;
    const posState = total & pbMask;
    if (rc.bit(isMatch, (state << POS_BITS_MAX) + posState) === 0) {
      if (sizeKnown && total >= size) throw new Corrupt();
      const prev = total > 0 ? buf[total - 1]! : 0;
      const base = 0x300 * (((total & lpMask) << lc) + (prev >>> (8 - lc)));
      let symbol = 1;
      if (state >= 7) {
        let matchByte = back(rep0 + 1);
        do {
          const matchBit = (matchByte >>> 7) & 1;
          matchByte <<= 1;
          const bit = rc.bit(literals, base + ((1 + matchBit) << 8) + symbol);
          symbol = (symbol << 1) | bit;
          if (matchBit !== bit) break;
        } while (symbol < 0x100);
      }
      while (symbol < 0x100) symbol = (symbol << 1) | rc.bit(literals, base + symbol);
      put(symbol - 0x100);
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    let len: number;
    if (rc.bit(isRep, state) !== 0) {
      if (total === 0) throw new Corrupt();
      if (rc.bit(isRepG0, state) === 0) {
        if (rc.bit(isRep0Long, (state << POS_BITS_MAX) + posState) === 0) {
          state = state < 7 ? 9 : 11;
          put(back(rep0 + 1));
          continue;
        }
      } else {
        let dist: number;
        if (rc.bit(isRepG1, state) === 0) dist = rep1;
        else {
          if (rc.bit(isRepG2, state) === 0) dist = rep2;
          else {
            dist = rep3;
            rep3 = rep2;
          }
          rep2 = rep1;
        }
        rep1 = rep0;
        rep0 = dist;
      }
      len = repLenDecoder.decode(rc, posState);
      state = state < 7 ? 8 : 11;
    } else {
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      len = lenDecoder.decode(rc, posState);
      state = state < 7 ? 7 : 10;
      rep0 = distance(rc, len, posSlots, posDecoders, align);
      if (rep0 === 0xffffffff) {
        if (rc.finishedOk()) break;
        throw new Corrupt();
      }
      if (rep0 >= dictSize || rep0 >= total) throw new Corrupt();
    }
    len += MATCH_MIN_LEN;
    for (; len > 0; len--) {
      if (sizeKnown && total >= size) throw new Corrupt();
      put(back(rep0 + 1));
    }
  }
  return buf.subarray(0, total);
}

function distance(
  rc: RangeDecoder,
  len: number,
  posSlots: Uint16Array,
  posDecoders: Uint16Array,
  align: Uint16Array,
): number {
  const lenState = Math.min(len, LEN_TO_POS_STATES - 1);
  const posSlot = rc.tree(posSlots, lenState << 6, 6);
  if (posSlot < 4) return posSlot;
  const numDirectBits = (posSlot >>> 1) - 1;
  let dist = ((2 | (posSlot & 1)) << numDirectBits) >>> 0;
  if (posSlot < END_POS_MODEL_INDEX)
    return (dist + rc.reverseTree(posDecoders, dist - posSlot, numDirectBits)) >>> 0;
  dist = (dist + ((rc.direct(numDirectBits - NUM_ALIGN_BITS) << NUM_ALIGN_BITS) >>> 0)) >>> 0;
  return (dist + rc.reverseTree(align, 0, NUM_ALIGN_BITS)) >>> 0;
}
