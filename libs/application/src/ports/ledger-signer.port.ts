/** The service's Ed25519 key that signs the ledger's heads (docs/ledger.md, "Signed heads"). */
export const LEDGER_SIGNER = Symbol('LedgerSigner');

export interface LedgerSigner {
  /** Lowercase hex of the first 8 bytes of SHA-256 of the raw public key. */
  readonly keyId: string;
  /** The raw 32 bytes of the Ed25519 public key. */
  readonly publicKey: Buffer;
  sign(message: Buffer): Buffer;
}
