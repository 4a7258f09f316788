import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject, sign } from 'node:crypto';
import { LedgerSigner } from '@app/application/ports';
import { readOrCreateSharedFile } from '../fs';

/**
 * The ledger's Ed25519 signing key, kept as a PKCS#8 PEM file in DATA_DIR (owner-only, made by
 * the first process to start, like the webhook secrets' key). `keyId` is the hex of the first 8
 * bytes of SHA-256 of the raw 32-byte public key.
 */
export class Ed25519LedgerSigner implements LedgerSigner {
  readonly keyId: string;
  readonly publicKey: Buffer;

  constructor(private readonly privateKey: KeyObject) {
    if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('The ledger key must be an Ed25519 key');
    const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
    this.publicKey = Buffer.from(spki.subarray(spki.length - 32));
    this.keyId = createHash('sha256').update(this.publicKey).digest().subarray(0, 8).toString('hex');
  }

  static fromKeyFile(file: string): Ed25519LedgerSigner {
    const pem = readOrCreateSharedFile(file, () =>
      generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    ).value;
    try {
      return new Ed25519LedgerSigner(createPrivateKey(pem));
    } catch (error) {
      throw new Error(`${file} does not hold an Ed25519 private key (PKCS#8 PEM): ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  sign(message: Buffer): Buffer {
    return sign(null, message, this.privateKey);
  }
}
