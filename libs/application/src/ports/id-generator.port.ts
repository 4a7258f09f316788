import { randomBytes } from 'node:crypto';

export const ID_GENERATOR = Symbol('IdGenerator');
export interface IdGenerator {
  /** An opaque identifier with a readable prefix, e.g. `prj_3kT9...`. */
  next(prefix: string): string;
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `bytes` random bytes as base62 (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export const randomIds: IdGenerator = { next: (prefix) => `${prefix}_${randomBase62(20)}` };
