import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { notFound } from '@app/domain';
import { CLOCK, Clock } from '../ports/clock.port';
import { ID_GENERATOR, IdGenerator } from '../ports/id-generator.port';
import {
  OPERATOR_CREDENTIAL_STORE,
  OperatorCredentialRecord,
  OperatorCredentialStore,
  OperatorRole,
} from '../ports/operator-credential-store.port';

/** Every operator credential's token starts with this, so the service knows which store to ask. */
export const OPERATOR_TOKEN_PREFIX = 'opk_';
/** The prefix, then 32 random bytes in base64url. */
const TOKEN = /^opk_[A-Za-z0-9_-]{43}$/;

export const OPERATOR_NOT_FOUND = 'Operator credential not found';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A credential as it is listed: never the token, nor its digest. */
export interface OperatorCredentialView {
  id: string;
  name: string;
  role: OperatorRole;
  status: 'active' | 'revoked';
  created: number;
  revoked_at: number | null;
}

/** Who presented a valid credential. */
export interface OperatorIdentity {
  id: string;
  name: string;
  role: OperatorRole;
}

const view = (record: OperatorCredentialRecord): OperatorCredentialView => ({
  id: record.id,
  name: record.name,
  role: record.role,
  status: record.revokedAt === null ? 'active' : 'revoked',
  created: record.createdAt,
  revoked_at: record.revokedAt,
});

/**
 * Named operator credentials with a role: created (the token shown once), listed and revoked by
 * an operator. Only the token's SHA-256 digest is stored; each request's credential is looked up
 * by that digest in the store, with no cache, so a revocation is refused from the next request on,
 * on every process.
 */
@Injectable()
export class OperatorCredentials implements OnModuleDestroy {
  constructor(
    @Inject(OPERATOR_CREDENTIAL_STORE) private readonly store: OperatorCredentialStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async onModuleDestroy() {
    await this.store.close();
  }

  async create(name: string, role: OperatorRole): Promise<{ id: string; token: string }> {
    const token = `${OPERATOR_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const id = this.ids.next('opr');
    await this.store.create({ id, name, role, tokenHash: sha256(token), createdAt: this.clock.now(), revokedAt: null });
    return { id, token };
  }

  async list(): Promise<{ operators: OperatorCredentialView[]; count: number }> {
    const operators = (await this.store.list()).map(view);
    return { operators, count: operators.length };
  }

  /** Revokes the credential (again: no change); 404 when there is none with this id. */
  async revoke(id: string): Promise<OperatorCredentialView> {
    const revoked = await this.store.revoke(id, this.clock.now());
    if (!revoked) throw notFound(OPERATOR_NOT_FOUND);
    return view(revoked);
  }

  /** The holder of a credential by its id, while it is not revoked (a console session re-reads it each request). */
  async identityOf(id: string): Promise<OperatorIdentity | null> {
    const found = await this.store.findById(id);
    if (!found || found.revokedAt !== null) return null;
    return { id: found.id, name: found.name, role: found.role };
  }

  /** The holder of a valid token; null for a malformed, unknown or revoked one. */
  async authenticate(token: string): Promise<OperatorIdentity | null> {
    if (!TOKEN.test(token)) return null;
    const found = await this.store.findByTokenHash(sha256(token));
    if (!found || found.revokedAt !== null) return null;
    return { id: found.id, name: found.name, role: found.role };
  }
}
