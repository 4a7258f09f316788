import { createHash, randomFillSync } from 'node:crypto';
import { v7 as uuidV7 } from 'uuid';
import { IdGenerator } from '../ports/id-generator.port';

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

/** 20 base62 characters of a SHA-256 (about 119 bits). */
function derivedBase62(seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let out = '';
  for (let i = 0; out.length < 20; i++) out += ALPHABET[digest[i % digest.length] % 62];
  return out;
}

/** Width of an id's time part: 62^7 ms is about 111 years, so ids sort by time until 2081. */
const TIME_CHARS = 7;
const TIME_RANGE = 62 ** TIME_CHARS;
/** Random characters after the time part: about 77 bits, new in every millisecond. */
const RANDOM_CHARS = 20 - TIME_CHARS;

/** `ms` as TIME_CHARS base62 characters, zero-padded, so that the text sorts as the number does. */
export function timeBase62(ms: number): string {
  let rest = Math.floor(ms) % TIME_RANGE;
  let out = '';
  for (let i = 0; i < TIME_CHARS; i++) {
    out = ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

/**
 * Ids of 20 base62 characters whose first seven are the time of their making (milliseconds,
 * zero-padded) and the other thirteen random. Ids made later sort after, so every table and index
 * keyed by an id (read models, the stream index of the event store) receives new rows at its end:
 * one page touched per batch of inserts instead of one random page per row (the bytes written per
 * create: docs/performance.md). The creation time an id shows is the resource's `created` anyway.
 * `derive` stays a hash: the same seed must give the same id at any time.
 */
export function timeOrderedIdGenerator(now: () => number = Date.now): IdGenerator {
  return {
    next: (prefix) => `${prefix}_${timeBase62(now())}${randomBase62(RANDOM_CHARS)}`,
    derive: (prefix, seed) => `${prefix}_${derivedBase62(`${prefix}\0${seed}`)}`,
  };
}

export const timeOrderedIds: IdGenerator = timeOrderedIdGenerator();

/**
 * A new event's id: a UUID version 7 (RFC 9562), time-ordered like the ids above and for the same
 * reason: the event store's unique index on event ids and the audit read model, keyed by them,
 * receive each new event at their end. Still a UUID, as EventStoreDB requires of event ids.
 */
export const newEventId = (): string => uuidV7();
