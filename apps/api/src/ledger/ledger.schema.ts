import type { ConsistencyProof, InclusionProof, LedgerVerification, SignedHead } from '@app/application';
import { schemaOf } from '../openapi/schemas/schema-table';

const HEX_ROOT = '5f1a0c2b9e7d4a3f8b6c1d0e2f3a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c';
const hash = (description: string) => ({ description, example: HEX_ROOT, pattern: '^[0-9a-f]{64}$' });
const count = (description: string, example: number, minimum = 0) =>
  ({ type: 'integer', minimum, description, example }) as const;

export const SignedHeadSchema = schemaOf<SignedHead>(
  {
    name: 'LedgerHead',
    description:
      'A signed tree head: the Ed25519 signature covers `workspace-operations ledger head v1\\nsize=<size>\\nroot=<root>\\nsigned_at=<signed_at>\\n` (docs/ledger.md).',
  },
  {
    size: count('Leaves (events) in the tree', 48210),
    root: hash('RFC 9162 Merkle tree hash of the first `size` events, lowercase hex'),
    signed_at: { description: 'When it was signed (ISO 8601, UTC)', example: '2026-05-01T12:00:00.000Z' },
    key_id: { description: 'Hex of the first 8 bytes of SHA-256 of the raw public key', example: '3f9a1c0b7d2e4f65' },
    signature: { description: 'Base64 of the 64-byte Ed25519 signature', example: 'q1w2e3...==' },
  },
);

export const SignedHeadListSchema = schemaOf<{ heads: SignedHead[]; count: number; cursor: string | null }>(
  { name: 'LedgerHeadList', description: 'Kept heads, newest first.' },
  {
    heads: { type: () => [SignedHeadSchema] },
    count: count('Heads kept in all', 12),
    cursor: { type: String, nullable: true, description: 'Next page, or null', example: null },
  },
);

export const PublicKeySchema = schemaOf<{ key_id: string; public_key: string }>(
  { name: 'LedgerPublicKey', description: "The service's Ed25519 head-signing key." },
  {
    key_id: { description: 'Hex of the first 8 bytes of SHA-256 of the raw public key', example: '3f9a1c0b7d2e4f65' },
    public_key: {
      description: 'Base64 of the raw 32-byte Ed25519 public key',
      example: 'm0Xl7w3y1pQ3s5b5YVv0n2nJ8mUu9cKc7m2n3b4v5c8=',
    },
  },
);

export const InclusionProofSchema = schemaOf<InclusionProof>(
  { name: 'LedgerInclusionProof', description: 'RFC 9162 inclusion proof of one event in the tree of `size` leaves.' },
  {
    leaf_index: count('The event’s leaf index (0-based, store order)', 4711),
    position: count('The event’s store position', 4712, 1),
    event_id: { example: 'b0d6f4c2-3f5e-4a8b-9c1d-2e3f4a5b6c7d' },
    leaf_hash: hash('SHA-256(0x00 || leaf bytes), hex'),
    size: count('The tree size the proof is for', 48210, 1),
    root: hash('The root of that tree, hex'),
    audit_path: { type: [String], description: 'Sibling hashes, hex, from the leaf upwards', example: [HEX_ROOT] },
  },
);

export const ConsistencyProofSchema = schemaOf<ConsistencyProof>(
  { name: 'LedgerConsistencyProof', description: 'RFC 9162 consistency proof between two tree sizes.' },
  {
    first: count('The older size', 1000, 1),
    second: count('The newer size', 48210, 1),
    first_root: hash('Root at `first`, hex'),
    second_root: hash('Root at `second`, hex'),
    proof: { type: [String], description: 'The proof’s hashes, hex, in RFC 9162 order', example: [HEX_ROOT] },
  },
);

export const LedgerVerificationSchema = schemaOf<LedgerVerification>(
  { name: 'LedgerVerification', description: 'The stored log compared with a recomputation from the events.' },
  {
    size: count('Leaves in the log', 48210),
    checkpoint: count('Store position of its last leaf', 48210),
    root: hash('Root of the log, hex'),
    matches: { description: 'True when every leaf equals the hash of its event as stored now', example: true },
    first_mismatch_position: {
      type: 'integer',
      nullable: true,
      description: 'Store position of the first event that does not match',
      example: null,
    },
    detail: { type: String, nullable: true, example: null },
  },
);

export const LedgerRebuiltSchema = schemaOf<{ size: number }>(
  { name: 'LedgerRebuilt' },
  { size: count('Leaves in the rebuilt log', 48210) },
);
