// Password hashes for staff accounts: scrypt from node:crypto with a random salt per account,
// stored with its cost parameters so they can be raised later without breaking old hashes.
import {
  randomBytes,
  scrypt as scryptCallback,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';

const KEY_LENGTH = 64;
const SALT_BYTES = 16;
/**
 * N=2^15, r=8, p=3: one of the OWASP Password Storage cheat sheet's equivalent scrypt
 * settings (to N=2^17, r=8, p=1) using 32 MiB instead of 128 MiB per check, which suits a
 * small server where a login is rare.
 */
const DEFAULT_COST = { N: 2 ** 15, r: 8, p: 3 } as const;
const MAX_MEMORY = 128 * 1024 * 1024;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { ...options, maxmem: MAX_MEMORY },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const { N, r, p } = DEFAULT_COST;
  const key = await scrypt(password, salt, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return null;
  const parsed = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(parsed).every((v) => Number.isInteger(v) && v > 0)) return null;
  return { ...parsed, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') };
}

/** Compares in constant time; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const key = await scrypt(password, parsed.salt, { N: parsed.N, r: parsed.r, p: parsed.p });
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

let decoy: Promise<string> | null = null;
/**
 * A hash nobody's password matches, checked when the username is unknown so a login for a
 * missing account costs the same scrypt work as one for a real account.
 */
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(32).toString('base64url'));
  return decoy;
}
