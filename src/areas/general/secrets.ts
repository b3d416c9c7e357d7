import { hash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/**
 * scrypt cost: about 40 ms of one idle core a check (far more on a busy machine), so a guessed secret
 * costs an attacker the same; GetToken bounds how many checks run at once (src/areas/general/login-throttle.ts).
 */
const COST = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(secret, salt, KEY_LENGTH, COST);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(secret, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: COST.maxmem,
  });
  return timingSafeEqual(actual, expected);
}

/** A token carries 32 random bytes; only its SHA-256 is stored, so a database dump holds no usable token. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function newSecret(): string {
  return randomBytes(24).toString('base64url');
}

export function hashToken(token: string): string {
  // the one-shot digest: no Hash object per request (every authenticated request hashes its token)
  return hash('sha256', token, 'base64url');
}
