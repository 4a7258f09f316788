import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ed25519LedgerSigner } from './ed25519-ledger-signer';

describe('Ed25519LedgerSigner', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'ledger-key-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('makes its key on first use, owner-only, and every later opening reads the same key', () => {
    const file = join(dir, 'ledger-signing.key');
    const first = Ed25519LedgerSigner.fromKeyFile(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = Ed25519LedgerSigner.fromKeyFile(file);
    expect(again.publicKey.equals(first.publicKey)).toBe(true);
    expect(first.publicKey).toHaveLength(32);
    expect(first.keyId).toBe(createHash('sha256').update(first.publicKey).digest().subarray(0, 8).toString('hex'));
  });

  it('signs what the raw public key verifies', () => {
    const signer = Ed25519LedgerSigner.fromKeyFile(join(dir, 'k'));
    const key = createPublicKey({
      key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), signer.publicKey]),
      format: 'der',
      type: 'spki',
    });
    expect(verify(null, Buffer.from('text'), key, signer.sign(Buffer.from('text')))).toBe(true);
    expect(verify(null, Buffer.from('other'), key, signer.sign(Buffer.from('text')))).toBe(false);
  });

  it('refuses a file that does not hold an Ed25519 private key', () => {
    writeFileSync(join(dir, 'bad'), 'not a key\n');
    expect(() => Ed25519LedgerSigner.fromKeyFile(join(dir, 'bad'))).toThrow(/does not hold an Ed25519 private key/);
  });
});
