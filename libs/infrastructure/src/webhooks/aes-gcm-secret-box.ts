import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { WebhookSecretBox } from '@app/application/ports';
import { readOrCreateSharedFile } from '../fs/shared-file';

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals webhook signing secrets with AES-256-GCM under a key that lives outside the event store:
 * a file in DATA_DIR, generated on first start with owner-only permissions (0600). The event
 * history and its backups then hold only ciphertext; whoever has the events but not the key file
 * cannot sign (or forge) deliveries.
 *
 * Sealed form: `v1.<key id>.<iv>.<ciphertext+tag>` (base64url parts). The key id (a hash prefix of
 * the key) says which key sealed it, so a future key rotation can keep old keys to open old
 * secrets. The webhook id is the additional authenticated data: a sealed secret moved to another
 * webhook does not open. A random 96-bit IV per seal is safe far beyond any realistic number of
 * secrets under one key.
 */
export class AesGcmSecretBox implements WebhookSecretBox {
  private readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`Webhook secret key must be ${KEY_BYTES} bytes`);
    this.keyId = createHash('sha256').update(key).digest('base64url').slice(0, 8);
  }

  /**
   * Reads the key file, or creates it (atomically, mode 0600) when it does not exist yet. Every
   * process of a deployment must see the same file: sealed secrets open only with their key. An
   * exclusive create alone let a process starting at the same moment read the file still empty.
   */
  static fromKeyFile(file: string): AesGcmSecretBox {
    const text = readOrCreateSharedFile(file, () => randomBytes(KEY_BYTES).toString('hex')).value;
    if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${file} does not hold a 256-bit hex key`);
    return new AesGcmSecretBox(Buffer.from(text, 'hex'));
  }

  seal(secret: string, webhookId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(aad(webhookId));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [VERSION, this.keyId, iv.toString('base64url'), sealed.toString('base64url')].join('.');
  }

  open(sealed: string, webhookId: string): string {
    const [version, keyId, iv, body] = sealed.split('.');
    if (version !== VERSION || !iv || !body) throw new Error('Unknown sealed secret format');
    if (keyId !== this.keyId) throw new Error(`Sealed with another key (${keyId})`);
    const bytes = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(aad(webhookId));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  }
}

const aad = (webhookId: string) => Buffer.from(`webhook-secret:${webhookId}`, 'utf8');
