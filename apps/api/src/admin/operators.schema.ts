import { OPERATOR_ROLES, OPERATOR_TOKEN_PREFIX, OperatorCredentialView } from '@app/application';
import { millis, PAGE_COUNT } from '../openapi/schemas/common.schema';
import { schemaOf } from '../openapi/schemas/schema-table';

const OPERATOR_ID = 'opr_8Hj2Kl4Mn6Pq8Rs0Tu2V';

export const CreatedOperatorSchema = schemaOf<{ id: string; token: string }>(
  { name: 'CreatedOperator', description: 'The new operator credential: the token is shown only in this response.' },
  {
    id: { example: OPERATOR_ID },
    token: {
      description: `Send as \`Authorization: Bearer <token>\` on /v1/admin, or type it into the console's sign-in; begins with \`${OPERATOR_TOKEN_PREFIX}\`. Only its SHA-256 is stored.`,
      pattern: `^${OPERATOR_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`,
      example: `${OPERATOR_TOKEN_PREFIX}Zr4kT9LmN8vB5cR7wZa2Yd4Fg6Hj8Kl0Pq2Rs4Tu6Wy`,
    },
  },
);

export const OperatorSchema = schemaOf<OperatorCredentialView>(
  { name: 'OperatorCredential', description: 'An operator credential as listed: never its token.' },
  {
    id: { example: OPERATOR_ID },
    name: { example: 'Night shift auditor' },
    role: { enum: [...OPERATOR_ROLES], example: 'auditor' },
    status: { enum: ['active', 'revoked'], example: 'active' },
    created: millis(),
    revoked_at: millis('When it was revoked (Unix time in milliseconds); null while active', { nullable: true }),
  },
);

export const OperatorListSchema = schemaOf<{ operators: OperatorCredentialView[]; count: number }>(
  { name: 'OperatorCredentialList', description: 'Every operator credential, in the order they were created.' },
  {
    operators: { type: () => [OperatorSchema] },
    count: { ...PAGE_COUNT, maximum: undefined, description: 'Number of credentials' },
  },
);
