// Turns raw entry names (ZIP bytes in CP437 or UTF-8, GMA names, folder paths) into the
// normalised `/` paths the analysis sees, noting names that try to escape or are absolute.
import { isAscii } from 'node:buffer';
import { crc32 } from 'node:zlib';

// Code page 437, bytes 0x80–0xFF: the ZIP default when the UTF-8 flag (bit 11) is unset.
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

export function decodeCp437(bytes: Uint8Array): string {
  // Nearly every name is ASCII, the same in CP437 and Latin-1: decoded natively.
  if (isAscii(bytes))
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let out = '';
  for (const b of bytes) out += b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80];
  return out;
}

const utf8 = new TextDecoder('utf-8');

interface ExtraField {
  id: number;
  data: Buffer;
}

/** Decodes a ZIP entry name the way unzip tools do (Info-ZIP Unicode Path field, then flag bit 11). */
export function decodeZipName(
  raw: Buffer,
  generalPurposeBitFlag: number,
  extraFields: ExtraField[] = [],
): string {
  for (const field of extraFields) {
    // 0x7075 holds a UTF-8 name valid only while its CRC matches the plain name field.
    if (field.id !== 0x7075 || field.data.length < 6 || field.data[0] !== 1) continue;
    if (field.data.readUInt32LE(1) !== crc32(raw)) continue;
    return utf8.decode(field.data.subarray(5));
  }
  return (generalPurposeBitFlag & 0x800) !== 0 ? utf8.decode(raw) : decodeCp437(raw);
}

export interface NormalisedName {
  path: string;
  /** The name held a `..` segment. */
  traversal: boolean;
  /** The name started with `/`, `\`, or a drive letter. */
  absolute: boolean;
}

/** Anything the rebuilding would change: a backslash, NUL, a drive or root, an empty, `.` or `..` segment. */
// eslint-disable-next-line no-control-regex
const NEEDS_NORMALISING = /[\\\u0000]|^[a-zA-Z]:|^\/|\/\/|\/$|(^|\/)\.{1,2}(\/|$)/;

/**
 * Backslashes become `/`, `.` and empty segments go, `..` is resolved inside the archive
 * (never above its root): the entry is still analysed under the name an unpacker would give it.
 */
export function normaliseEntryName(raw: string): NormalisedName {
  // Nearly every name is already normal; only the others pay for the rebuilding below.
  if (raw !== '' && !NEEDS_NORMALISING.test(raw))
    return { path: raw, traversal: false, absolute: false };
  // eslint-disable-next-line no-control-regex
  let name = raw.replace(/\\/g, '/').replace(/\u0000/g, '');
  let absolute = false;
  if (/^[a-zA-Z]:/.test(name)) {
    absolute = true;
    name = name.slice(2);
  }
  if (name.startsWith('/')) absolute = true;
  let traversal = false;
  const parts: string[] = [];
  for (const segment of name.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      traversal = true;
      parts.pop();
      continue;
    }
    parts.push(segment);
  }
  return { path: parts.length > 0 ? parts.join('/') : '(unnamed)', traversal, absolute };
}

/** True for names that only denote a directory in a ZIP. */
export function isDirectoryName(raw: string): boolean {
  return raw.endsWith('/') || raw.endsWith('\\');
}
