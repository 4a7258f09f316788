/*
 * The Merkle tree of RFC 9162 (Certificate Transparency v2), section 2.1, over SHA-256:
 * leaf hash = SHA-256(0x00 || leaf), interior = SHA-256(0x01 || left || right), the tree of n
 * leaves split at the largest power of two smaller than n. Plain functions, no I/O: the service
 * and the offline verifier (`audit verify`) share them. docs/ledger.md specifies every format.
 */

import { createHash } from 'node:crypto';
import { StoredEventBytes } from '../ports/event-store.port';
import { Frontier, Hash, LEAF_ENCODING, nodeHash, sha256 } from './merkle-core';

// The hashing the log is built with, in plain JavaScript for the embedded store's writer thread.
export { EMPTY_ROOT, eventLeafHash, Frontier, LEAF_ENCODING, nodeHash, sha256 } from './merkle-core';
export type { Hash } from './merkle-core';

const LEAF_PREFIX = Buffer.from([0]);

export function leafHash(leaf: Uint8Array): Hash {
  return createHash('sha256').update(LEAF_PREFIX).update(leaf).digest();
}

/**
 * The bytes of an event's leaf: nine fields, each a 4-byte big-endian length then its bytes —
 * the encoding's name, then position, stream id, revision, event id, type, schema version (the
 * numbers as decimal ASCII, the texts as UTF-8), then the SHA-256 of the stored data bytes, and
 * the stored metadata bytes, exactly as the store holds them. The data enters through its digest
 * so that an export can leave out the bytes of an event holding a credential (an API key's hash)
 * and still let its leaf be checked (docs/ledger.md, "Leaves").
 */
export function leafBytes(event: StoredEventBytes): Buffer {
  return leafBytesOf(event, sha256(event.data));
}

/** The leaf bytes with the data given by its SHA-256 (what an export line carries). */
export function leafBytesOf(event: Omit<StoredEventBytes, 'data'>, dataSha256: Uint8Array): Buffer {
  const fields: Uint8Array[] = [
    Buffer.from(LEAF_ENCODING, 'utf8'),
    Buffer.from(String(event.position), 'utf8'),
    Buffer.from(event.streamId, 'utf8'),
    Buffer.from(String(event.revision), 'utf8'),
    Buffer.from(event.id, 'utf8'),
    Buffer.from(event.type, 'utf8'),
    Buffer.from(String(event.schemaVersion), 'utf8'),
    dataSha256,
    event.metadata,
  ];
  const parts: Uint8Array[] = [];
  for (const field of fields) {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(field.length);
    parts.push(length, field);
  }
  return Buffer.concat(parts);
}

/** The largest power of two smaller than n (n > 1). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH of the leaf hashes given (any number). */
export function rootOf(leaves: Iterable<Hash>): Hash {
  const frontier = Frontier.empty();
  for (const leaf of leaves) frontier.append(leaf);
  return frontier.root();
}

/** The hash of leaves [start, end) of a tree, read range by range from wherever they are kept. */
export type SubtreeHasher = (start: number, end: number) => Promise<Hash>;

/** RFC 9162 2.1.3.1: the inclusion proof (audit path) of leaf m in the tree of n leaves. */
export async function inclusionPath(m: number, n: number, subtree: SubtreeHasher): Promise<Hash[]> {
  if (m < 0 || m >= n) throw new RangeError(`leaf ${m} is not in a tree of ${n}`);
  const path: Hash[] = [];
  let start = 0;
  let end = n;
  // Walks down from the root; each step's sibling is appended after the deeper ones, so they are
  // collected top-down and reversed.
  const siblings: Hash[] = [];
  while (end - start > 1) {
    const k = splitPoint(end - start);
    if (m - start < k) {
      siblings.push(await subtree(start + k, end));
      end = start + k;
    } else {
      siblings.push(await subtree(start, start + k));
      start = start + k;
    }
  }
  for (let i = siblings.length - 1; i >= 0; i--) path.push(siblings[i]);
  return path;
}

/** RFC 9162 2.1.4.1: the consistency proof between the trees of m and n leaves (0 < m <= n). */
export async function consistencyPath(m: number, n: number, subtree: SubtreeHasher): Promise<Hash[]> {
  if (m <= 0 || m > n) throw new RangeError(`no consistency proof from ${m} to ${n}`);
  const top: Hash[] = [];
  let start = 0;
  let end = n;
  let size = m;
  let complete = true;
  for (;;) {
    if (size === end - start) {
      if (!complete) top.push(await subtree(start, end));
      break;
    }
    const k = splitPoint(end - start);
    if (size <= k) {
      top.push(await subtree(start + k, end));
      end = start + k;
    } else {
      top.push(await subtree(start, start + k));
      start = start + k;
      size -= k;
      complete = false;
    }
  }
  return top.reverse();
}

/** RFC 9162 2.1.3.2: whether `path` proves leaf `index` (hash `leaf`) in the tree of `size` with `root`. */
export function verifyInclusion(index: number, size: number, leaf: Hash, path: Hash[], root: Hash): boolean {
  if (index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(root);
}

/** RFC 9162 2.1.4.2: whether `proof` shows the tree (first, firstRoot) is a prefix of (second, secondRoot). */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Hash,
  secondRoot: Hash,
  proof: Hash[],
): boolean {
  if (first > second) return false;
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot);
  if (first === 0) return proof.length === 0;
  const path = proof.slice();
  if (isPowerOfTwo(first)) path.unshift(firstRoot);
  if (path.length === 0) return false;
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(firstRoot) && sr.equals(secondRoot);
}

const isPowerOfTwo = (n: number) => n > 0 && Number.isInteger(Math.log2(n));

/** The text a head's signature covers (docs/ledger.md, "Signed heads"). */
export function headSigningText(head: { size: number; root: string; signed_at: string }): string {
  return `workspace-operations ledger head v1\nsize=${head.size}\nroot=${head.root}\nsigned_at=${head.signed_at}\n`;
}
