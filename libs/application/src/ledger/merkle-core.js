'use strict';
/*
 * The hashing at the core of the ledger's tree (RFC 9162, section 2.1, over SHA-256) and the leaf
 * encoding of docs/ledger.md, in plain JavaScript so that the embedded store's writer thread
 * (which loads no TypeScript) builds the log with this very code: merkle.ts re-exports it for the
 * service, the proofs and the offline verifier. Plain functions, no I/O.
 */
const { createHash, hash: oneShotHash } = require('node:crypto');

const LEAF_PREFIX = 0x00;
const NODE_PREFIX = 0x01;
/** The first field of every leaf: names the encoding, so another one can never be mistaken for it. */
const LEAF_ENCODING = 'workspace-operations ledger leaf v1';
const LEAF_ENCODING_BYTES = Buffer.from(LEAF_ENCODING, 'utf8');

const sha256 = (bytes) => oneShotHash('sha256', bytes, 'buffer');

/** One buffer and one one-shot hash per node: the log hashes about two nodes per event. */
function nodeHash(left, right) {
  const bytes = Buffer.allocUnsafe(1 + left.length + right.length);
  bytes[0] = NODE_PREFIX;
  left.copy(bytes, 1);
  right.copy(bytes, 1 + left.length);
  return sha256(bytes);
}

/** MTH({}) = SHA-256 of the empty string. */
const EMPTY_ROOT = createHash('sha256').digest();

/**
 * The leaf hash of an event as stored, SHA-256(0x00 || leaf), the leaf's nine fields written
 * straight into one buffer after the prefix (docs/ledger.md, "Leaves"): each a 4-byte big-endian
 * length then its bytes — the encoding's name, position, stream id, revision, event id, type,
 * schema version (numbers as decimal ASCII, texts as UTF-8), the SHA-256 of the stored data bytes,
 * and the stored metadata bytes.
 */
function eventLeafHash(event) {
  const texts = [
    String(event.position),
    event.streamId,
    String(event.revision),
    event.id,
    event.type,
    String(event.schemaVersion),
  ];
  const data = sha256(event.data);
  let size = 1 + 4 + LEAF_ENCODING_BYTES.length + 8 + data.length + event.metadata.length;
  for (const text of texts) size += 4 + Buffer.byteLength(text, 'utf8');
  const bytes = Buffer.allocUnsafe(size);
  bytes[0] = LEAF_PREFIX;
  let at = 1;
  at = bytes.writeUInt32BE(LEAF_ENCODING_BYTES.length, at);
  at += LEAF_ENCODING_BYTES.copy(bytes, at);
  for (const text of texts) {
    const length = bytes.write(text, at + 4, 'utf8');
    bytes.writeUInt32BE(length, at);
    at += 4 + length;
  }
  for (const field of [data, event.metadata]) {
    at = bytes.writeUInt32BE(field.length, at);
    bytes.set(field, at);
    at += field.length;
  }
  return sha256(bytes);
}

/**
 * The compact frontier of a tree: the roots of its perfect subtrees, largest (leftmost) first —
 * one per set bit of the size. Appending a leaf merges equal-sized subtrees like a binary
 * counter; the root folds them from the right. O(log n) space, whatever the size.
 */
class Frontier {
  constructor(count, roots) {
    this.count = count;
    this.roots = roots;
  }

  static empty() {
    return new Frontier(0, []);
  }

  static of(size, roots) {
    let bits = 0;
    for (let n = size; n > 0; n = Math.floor(n / 2)) bits += n % 2;
    if (bits !== roots.length)
      throw new Error(`A frontier of ${size} leaves has ${bits} subtrees, not ${roots.length}`);
    return new Frontier(size, roots.slice());
  }

  get size() {
    return this.count;
  }

  get subtrees() {
    return this.roots.slice();
  }

  append(leaf) {
    let hash = leaf;
    // Each trailing set bit of the size is a subtree as large as the one being carried.
    for (let n = this.count; n % 2 === 1; n = Math.floor(n / 2)) hash = nodeHash(this.roots.pop(), hash);
    this.roots.push(hash);
    this.count += 1;
  }

  root() {
    if (this.roots.length === 0) return EMPTY_ROOT;
    let hash = this.roots[this.roots.length - 1];
    for (let i = this.roots.length - 2; i >= 0; i--) hash = nodeHash(this.roots[i], hash);
    return hash;
  }

  clone() {
    return new Frontier(this.count, this.roots.slice());
  }
}

module.exports = { EMPTY_ROOT, eventLeafHash, Frontier, LEAF_ENCODING, nodeHash, sha256 };
