// Reads the header of a Source engine map (VBSP): the 64 lump records that say where the
// entity text and the embedded pakfile sit, checked against what a header can claim.

export interface BspLump {
  offset: number;
  length: number;
}

export interface BspHeader {
  version: number;
  lumps: BspLump[];
}

const LUMP_COUNT = 64;
/** "VBSP", version, 64 × {offset, length, version, fourCC}; the map revision follows. */
const HEADER_BYTES = 8 + LUMP_COUNT * 16;

/** The header, or why it cannot be read. */
export function readBspHeader(head: Uint8Array): BspHeader | string {
  if (head.length < HEADER_BYTES)
    return `header needs ${HEADER_BYTES} bytes, file has ${head.length}`;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (view.getUint32(0, true) !== 0x50534256) return 'no VBSP magic';
  const version = view.getInt32(4, true);
  const lumps: BspLump[] = [];
  for (let i = 0; i < LUMP_COUNT; i++) {
    const offset = view.getInt32(8 + i * 16, true);
    const length = view.getInt32(12 + i * 16, true);
    if (offset < 0 || length < 0) return `lump ${i} has a negative offset or length`;
    // Zero-length lumps may carry any offset; only real ones must start after the header.
    if (length > 0 && offset < HEADER_BYTES) return `lump ${i} starts inside the header`;
    lumps.push({ offset, length });
  }
  return { version, lumps };
}
