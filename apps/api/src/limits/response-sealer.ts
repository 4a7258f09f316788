import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const SALT = Buffer.from('workspace-operations/idempotency/v1');

/**
 * Keeps stored responses unreadable to anyone without the caller's credential.
 *
 * A replayed response may hold a secret shown once (an API key, a webhook secret). The key that
 * seals it is derived (HKDF-SHA256) from the bearer credential of the request, which the service
 * itself never stores, so the idempotency store holds nothing a reader of its files or database
 * could use; only a retry that presents the same credential can open the record. The request
 * fingerprint is an HMAC under the same key, so it reveals nothing about request bodies either.
 */
export class ResponseSealer {
  private readonly key: Buffer;

  constructor(credential: string, scope: string) {
    this.key = Buffer.from(hkdfSync('sha256', credential, SALT, scope, 32));
  }

  /** What the request asks for: method, path with query, and the body with its keys sorted (key order is not meaning). */
  fingerprint(method: string, url: string, body: unknown): string {
    return createHmac('sha256', this.key)
      .update(`${method}\n${url}\n${canonicalJson(body)}`)
      .digest('base64url');
  }

  /** AES-256-GCM; the record's key is authenticated with it, so a body cannot be moved to another record. */
  seal(plain: string, recordKey: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(recordKey));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      data.toString('base64url'),
    ].join('.');
  }

  /** The plain text, or null when the record was sealed under another key or altered. */
  open(sealed: string, recordKey: string): string | null {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || data === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(recordKey));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

/**
 * JSON with object keys sorted at every level, so `{"a":1,"b":2}` and `{"b":2,"a":1}` fingerprint
 * alike. Iterative, not recursive: the body has not been validated yet, and a hostile one nested
 * a hundred thousand levels deep must reach validation (and its 400), not overflow the stack here.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Work items in reverse order of output: a value still to write, or literal text.
  const stack: ({ text: string } | { value: unknown })[] = [{ value }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ('text' in item) {
      out.push(item.text);
      continue;
    }
    const v = item.value;
    if (v === undefined) out.push('null');
    else if (v === null || typeof v !== 'object') out.push(JSON.stringify(v));
    else if (Array.isArray(v)) {
      stack.push({ text: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ value: v[i] });
        if (i > 0) stack.push({ text: ',' });
      }
      stack.push({ text: '[' });
    } else {
      const record = v as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort();
      stack.push({ text: '}' });
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ value: record[keys[i]] });
        stack.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:` });
      }
      stack.push({ text: '{' });
    }
  }
  return out.join('');
}
