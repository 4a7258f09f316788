import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface SecretFinding {
  label: string;
  /** Where it was found (a caller-supplied name: a log, a response). */
  where: string;
  /** A short excerpt around the hit, with the secret itself masked. */
  excerpt: string;
}

/**
 * Every credential a test run issued (API keys, the admin token, webhook secrets), in each form
 * it could leak in: as issued, the part after a known prefix, and the SHA-256 a store keeps of an
 * API key (hex and base64). `scan` reports each one found in a text.
 */
export class SecretRegistry {
  private readonly needles = new Map<string, string>();

  /** `kind` decides the derived forms worth looking for. */
  add(label: string, value: string, kind: 'api_key' | 'admin_token' | 'webhook_secret' = 'api_key'): void {
    if (!value) return;
    this.needles.set(value, label);
    if (kind === 'api_key') {
      const digest = createHash('sha256').update(value).digest();
      this.needles.set(digest.toString('hex'), `${label} (sha256 hex)`);
      this.needles.set(digest.toString('base64'), `${label} (sha256 base64)`);
      this.needles.set(digest.toString('base64url'), `${label} (sha256 base64url)`);
      // The random part alone, in case a prefix was stripped before logging.
      if (value.startsWith('v1_')) this.needles.set(value.slice(3), `${label} (without prefix)`);
    }
    if (kind === 'webhook_secret' && value.startsWith('whsec_'))
      this.needles.set(value.slice(6), `${label} (without prefix)`);
    if (kind === 'admin_token' && value.startsWith('adm_'))
      this.needles.set(value.slice(4), `${label} (without prefix)`);
  }

  get size(): number {
    return this.needles.size;
  }

  /** Number of credentials issued (not counting derived forms). */
  labels(): string[] {
    return [...new Set([...this.needles.values()].filter((l) => !l.includes('(')))];
  }

  scan(text: string, where: string): SecretFinding[] {
    const findings: SecretFinding[] = [];
    for (const [needle, label] of this.needles) {
      // Very short derived forms would match by chance; every needle here is at least 32 characters.
      if (needle.length < 16) continue;
      let from = 0;
      for (;;) {
        const at = text.indexOf(needle, from);
        if (at === -1) break;
        const excerpt = `${text.slice(Math.max(0, at - 60), at)}<${label}>${text.slice(at + needle.length, at + needle.length + 60)}`;
        findings.push({ label, where, excerpt: excerpt.replace(/\s+/g, ' ') });
        from = at + needle.length;
      }
    }
    return findings;
  }

  scanFile(path: string, where = path): SecretFinding[] {
    return this.scan(readFileSync(path, 'utf8'), where);
  }
}
