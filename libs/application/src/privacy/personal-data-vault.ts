import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SUBJECT_KEY_STORE, SubjectKeyStore } from '../ports/subject-key-store.port';

/** What erased personal data reads as, wherever it is shown. */
export const ERASED = '[erased]';
const FORMAT = 'pdv1';
/** The key of the blind index (keyed email hashes); a subject of its own, never erased. */
const INDEX_SUBJECT = '__blind_index__';
const KEY_CACHE_MS = 5_000;

/**
 * Seals personal data with its subject's key (AES-256-GCM, the subject id as associated data),
 * so events and read models hold only ciphertext: `pdv1.<subject>.<iv>.<tag>.<ciphertext>`
 * (base64url parts). Erasing destroys the key; sealed data then opens as `null`.
 */
@Injectable()
export class PersonalDataVault {
  /** Keys cached briefly: an erasure in another process is seen within KEY_CACHE_MS at the latest. */
  private readonly keys = new Map<string, { key: Buffer | null; until: number }>();

  constructor(@Inject(SUBJECT_KEY_STORE) private readonly store: SubjectKeyStore) {}

  async seal(subjectId: string, data: Record<string, unknown>): Promise<string> {
    const key = await this.store.getOrCreate(subjectId);
    if (!key) throw new Error(`Personal data of ${subjectId} was erased; nothing can be sealed for it`);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(subjectId));
    const body = Buffer.concat([cipher.update(JSON.stringify(data), 'utf8'), cipher.final()]);
    const parts = [Buffer.from(subjectId), iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return [FORMAT, ...parts].join('.');
  }

  /** The sealed data, or null once its subject was erased (or for anything that is not a seal). */
  async open<T = Record<string, unknown>>(sealed: string | null | undefined): Promise<T | null> {
    if (typeof sealed !== 'string') return null;
    const [format, subjectPart, ivPart, tagPart, bodyPart] = sealed.split('.');
    if (format !== FORMAT || !bodyPart) return null;
    const subjectId = Buffer.from(subjectPart, 'base64url').toString();
    const key = await this.key(subjectId);
    if (!key) return null;
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivPart, 'base64url'));
    decipher.setAAD(Buffer.from(subjectId));
    decipher.setAuthTag(Buffer.from(tagPart, 'base64url'));
    const plain = Buffer.concat([decipher.update(Buffer.from(bodyPart, 'base64url')), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as T;
  }

  async erase(subjectId: string): Promise<void> {
    await this.store.destroy(subjectId);
    this.keys.set(subjectId, { key: null, until: Number.MAX_SAFE_INTEGER });
  }

  /** Drops a cached key (another process erased the subject). */
  forget(subjectId: string): void {
    this.keys.delete(subjectId);
  }

  /**
   * A keyed hash (HMAC-SHA256) for equality checks on personal data without storing it, e.g.
   * "is this email already a member". Without the index key it cannot be reversed by guessing.
   */
  async blindIndex(value: string): Promise<string> {
    const key = await this.store.getOrCreate(INDEX_SUBJECT);
    return createHmac('sha256', key!).update(value).digest('base64url');
  }

  /**
   * For auditors' views (history, feed, exports): every `<name>_sealed` field of a change is shown
   * opened as `<name>`, or with each of its fields `[erased]` once its subject was erased.
   */
  async reveal(value: unknown): Promise<unknown> {
    if (Array.isArray(value)) return Promise.all(value.map((v) => this.reveal(v)));
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [field, inner] of Object.entries(value as Record<string, unknown>)) {
      if (field.endsWith('_sealed') && typeof inner === 'string') {
        out[field.slice(0, -'_sealed'.length)] = (await this.open(inner)) ?? ERASED;
      } else {
        out[field] = await this.reveal(inner);
      }
    }
    return out;
  }

  private async key(subjectId: string): Promise<Buffer | null> {
    const cached = this.keys.get(subjectId);
    if (cached && cached.until > Date.now()) return cached.key;
    const key = await this.store.get(subjectId);
    if (this.keys.size > 10_000) this.keys.clear();
    this.keys.set(subjectId, { key, until: Date.now() + KEY_CACHE_MS });
    return key;
  }
}
