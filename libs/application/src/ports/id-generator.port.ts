import { createHash, randomFillSync } from 'node:crypto';

export const ID_GENERATOR = Symbol('IdGenerator');
export interface IdGenerator {
  /** An opaque identifier with a readable prefix, e.g. `prj_3kT9...`. */
  next(prefix: string): string;
  /** The same identifier for the same prefix and seed, unguessable without the seed. */
  derive(prefix: string, seed: string): string;
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Bytes from the CSPRNG, drawn 4 KB at a time: one call per id (a buffer and a trip into OpenSSL
 * each) was about 2% of a create. Node's randomUUID keeps such a pool too.
 */
const pool = Buffer.alloc(4096);
let pooled = 0;
function randomByte(): number {
  if (pooled === 0) {
    randomFillSync(pool);
    pooled = pool.length;
  }
  return pool[--pooled];
}

/** `length` characters of base62 (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** 20 base62 characters of a SHA-256 (about 119 bits, as random ids have). */
function derivedBase62(seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let out = '';
  for (let i = 0; out.length < 20; i++) out += ALPHABET[digest[i % digest.length] % 62];
  return out;
}

export const randomIds: IdGenerator = {
  next: (prefix) => `${prefix}_${randomBase62(20)}`,
  derive: (prefix, seed) => `${prefix}_${derivedBase62(`${prefix}\0${seed}`)}`,
};
