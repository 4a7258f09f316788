/** The ledger's tree hashing and leaf encoding (see merkle-core.js); merkle.ts re-exports it. */
export type Hash = Buffer;

/** What a leaf commits to: an event as the store holds it (StoredEventBytes). */
export interface LeafEvent {
  position: number;
  streamId: string;
  revision: number;
  id: string;
  type: string;
  schemaVersion: number;
  data: Uint8Array;
  metadata: Uint8Array;
}

export const LEAF_ENCODING: 'workspace-operations ledger leaf v1';
export const EMPTY_ROOT: Hash;
export function sha256(bytes: Uint8Array): Hash;
export function nodeHash(left: Hash, right: Hash): Hash;
/** SHA-256(0x00 || leaf bytes of the event) (docs/ledger.md, "Leaves"). */
export function eventLeafHash(event: LeafEvent): Hash;

export class Frontier {
  private constructor();
  static empty(): Frontier;
  static of(size: number, roots: Hash[]): Frontier;
  get size(): number;
  get subtrees(): Hash[];
  append(leaf: Hash): void;
  root(): Hash;
  clone(): Frontier;
}
