import { Inject, Injectable } from '@nestjs/common';
import { ApiKeyScope } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../ports/read-model.port';
import { API_KEY_FORMAT, hashApiKey } from './api-key-secret';
import { API_KEYS, ApiKeyDoc, WORKSPACES, WorkspaceDoc } from './workspace.projector';

/** The caller behind a valid API key. */
export interface Principal {
  keyId: string;
  keyName: string;
  workspaceId: string;
  scope: ApiKeyScope;
}

export type AuthFailure = 'invalid_api_key' | 'api_key_inactive' | 'enterprise_required';
export type AuthResult = { ok: true; principal: Principal } | { ok: false; failure: AuthFailure };

/** Resolves a presented key to its workspace and scope, in the order of spec section 5. */
@Injectable()
export class ApiKeyAuthenticator {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async authenticate(presented: string | undefined): Promise<AuthResult> {
    if (!presented || !API_KEY_FORMAT.test(presented)) return { ok: false, failure: 'invalid_api_key' };
    const [key] = await this.read.find<ApiKeyDoc>(API_KEYS, { where: { key_hash: hashApiKey(presented) }, limit: 1 });
    if (!key) return { ok: false, failure: 'invalid_api_key' };
    if (key.doc.status !== 'active') return { ok: false, failure: 'api_key_inactive' };
    const workspace = await this.read.get<WorkspaceDoc>(WORKSPACES, key.doc.workspace_id);
    if (!workspace || workspace.doc.plan !== 'enterprise') return { ok: false, failure: 'enterprise_required' };
    return {
      ok: true,
      principal: { keyId: key.doc.id, keyName: key.doc.name, workspaceId: key.doc.workspace_id, scope: key.doc.scope },
    };
  }
}
