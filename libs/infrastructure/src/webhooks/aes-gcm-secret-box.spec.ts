import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AesGcmSecretBox } from './aes-gcm-secret-box';

describe('AES-GCM webhook secret box', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'secret-box-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates its key file once, owner-only, and opens what it sealed after a restart', () => {
    const file = join(dir, 'webhook-secrets.key');
    const sealed = AesGcmSecretBox.fromKeyFile(file).seal('whsec_abcd', 'whk_1');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(sealed).not.toContain('whsec_abcd');
    expect(AesGcmSecretBox.fromKeyFile(file).open(sealed, 'whk_1')).toBe('whsec_abcd');
  });

  it('refuses a secret moved to another webhook, altered, or sealed under another key', () => {
    const box = AesGcmSecretBox.fromKeyFile(join(dir, 'a.key'));
    const sealed = box.seal('whsec_abcd', 'whk_1');
    expect(() => box.open(sealed, 'whk_2')).toThrow();
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open([...parts.slice(0, 3), flipped.toString('base64url')].join('.'), 'whk_1')).toThrow();
    expect(() => AesGcmSecretBox.fromKeyFile(join(dir, 'b.key')).open(sealed, 'whk_1')).toThrow(/another key/);
  });

  it('seals the same secret differently every time', () => {
    const box = AesGcmSecretBox.fromKeyFile(join(dir, 'c.key'));
    expect(box.seal('whsec_abcd', 'whk_1')).not.toBe(box.seal('whsec_abcd', 'whk_1'));
  });
});
