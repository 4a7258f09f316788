import { hash, randomBytes } from 'node:crypto';
import { Inject, Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import { ApiKeyScope } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../ports/read-model.port';
import { ProjectionEngine } from '../projections/projection-engine';
import { dropOldest } from '../shared/drop-oldest';
import { ApiKeyUsageRecorder } from './api-key-usage-recorder';
import { API_KEYS, ApiKeyDoc, WORKSPACES, WorkspaceDoc } from './workspace.projector';

/** Every API key starts with this (docs/api.md, Authentication). */
export const API_KEY_PREFIX = 'v1_';
/** `v1_` + 32 random bytes as base64url (43 characters). */
export const API_KEY_FORMAT = /^v1_[A-Za-z0-9_-]{43,128}$/;

export function generateApiKey(): { key: string; hash: string } {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: hashApiKey(key) };
}

/**
 * A key carries 256 random bits, so a fast hash is as safe as a slow one: nobody can guess a
 * preimage, and a lookup stays a single indexed read. Only this hash is ever stored. Every request
 * hashes its key, with the one-shot `crypto.hash` (Node 20.12 and later), cheaper than a `Hash`
 * object.
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** The caller behind a valid API key. */
export interface Principal {
  keyId: string;
  keyName: string;
  workspaceId: string;
  scope: ApiKeyScope;
}

export type AuthFailure = 'invalid_api_key' | 'api_key_inactive' | 'enterprise_required';
export type AuthResult = { ok: true; principal: Principal } | { ok: false; failure: AuthFailure };

/** How long a cached answer may be trusted without an invalidation (another process's change). */
const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 50_000;
const INVALID: AuthResult = Object.freeze({ ok: false, failure: 'invalid_api_key' });

/**
 * Resolves a presented key to its workspace and scope, in the order of docs/api.md, Authentication.
 *
 * Every request authenticates, so answers are cached by key hash. The cache is dropped for a
 * workspace as soon as the projections apply one of its workspace events (a key created or
 * deactivated, a plan changed), so a deactivation takes effect on the very next request here;
 * the TTL bounds staleness for changes projected by another process. Unknown keys are not cached,
 * so guessing cannot fill the cache.
 */
@Injectable()
export class ApiKeyAuthenticator implements OnModuleDestroy {
  private readonly cache = new Map<string, { result: AuthResult; workspaceId: string; expires: number }>();
  private readonly unsubscribe: () => void;

  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    engine: ProjectionEngine,
    /** Where a key that passes is noted as used (the dashboard's "last used"); none in some tests. */
    @Optional() private readonly usage?: ApiKeyUsageRecorder,
  ) {
    this.unsubscribe = engine.onApplied((events) => {
      for (const event of events) {
        if (!event.type.startsWith('workspace.') || event.type.startsWith('workspace.project_slot')) continue;
        for (const [hash, entry] of this.cache)
          if (entry.workspaceId === event.metadata.workspaceId) this.cache.delete(hash);
      }
    });
  }

  onModuleDestroy() {
    this.unsubscribe();
  }

  /**
   * The presented key's answer, in the same turn, without a promise, whenever it can be: a
   * malformed key, or one whose answer is cached (nearly every request). Only a key not cached is
   * looked up in the read models, and then the answer is a promise. The request pipeline's first
   * hook calls this for every request: an async hook costs its promises and their turns each time.
   */
  check(presented: string | undefined): AuthResult | Promise<AuthResult> {
    if (!presented || !API_KEY_FORMAT.test(presented)) return INVALID;
    const hash = hashApiKey(presented);
    const cached = this.cache.get(hash);
    if (cached && cached.expires > Date.now()) return this.used(cached.result);
    return this.lookUpAndCache(hash);
  }

  private async lookUpAndCache(hash: string): Promise<AuthResult> {
    const { result, workspaceId } = await this.lookup(hash);
    if (workspaceId) {
      this.cache.set(hash, { result, workspaceId, expires: Date.now() + CACHE_TTL_MS });
      dropOldest(this.cache, CACHE_MAX_ENTRIES);
    }
    return this.used(result);
  }

  /** A key that passes is noted as used: a set insertion, written later in a batch (ApiKeyUsageRecorder). */
  private used(result: AuthResult): AuthResult {
    if (result.ok) this.usage?.note(result.principal.keyId);
    return result;
  }

  private async lookup(hash: string): Promise<{ result: AuthResult; workspaceId: string | null }> {
    const [key] = await this.read.find<ApiKeyDoc>(API_KEYS, { where: { key_hash: hash }, limit: 1 });
    if (!key) return { result: INVALID, workspaceId: null };
    const workspaceId = key.doc.workspace_id;
    if (key.doc.status !== 'active') return { result: { ok: false, failure: 'api_key_inactive' }, workspaceId };
    const workspace = await this.read.get<WorkspaceDoc>(WORKSPACES, workspaceId);
    if (!workspace || workspace.doc.plan !== 'enterprise')
      return { result: { ok: false, failure: 'enterprise_required' }, workspaceId };
    return {
      result: { ok: true, principal: { keyId: key.doc.id, keyName: key.doc.name, workspaceId, scope: key.doc.scope } },
      workspaceId,
    };
  }
}
