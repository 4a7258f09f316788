import { hash, randomBytes } from 'node:crypto';

/** Every API key starts with this (docs/api.md, Authentication). */
export const API_KEY_PREFIX = 'v1_';
/** `v1_` + 32 random bytes as base64url (43 characters). */
export const API_KEY_FORMAT = /^v1_[A-Za-z0-9_-]{43,128}$/;

export function generateApiKey(): { key: string; hash: string } {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: hashApiKey(key) };
}

/**
 * A key carries 256 random bits, so a fast hash is as safe as a slow one: nobody can guess a
 * preimage, and a lookup stays a single indexed read. Only this hash is ever stored. Every request
 * hashes its key, with the one-shot `crypto.hash` (Node 20.12 and later), cheaper than a `Hash`
 * object.
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}
