import { ApiPropertyOptions } from '@nestjs/swagger';
import { API_KEY_PREFIX } from '@app/application';
import { API_KEY_SCOPES, MEMBER_LIMITS as ML, MEMBER_ROLES, PLANS, WORKSPACE_LIMITS as L } from '@app/domain';
import { EXAMPLE } from './common.schema';
import { schemaOf } from './schema-table';

/** How the document describes the operator API's request fields (docs/operator-contract.md). */
export const ADMIN_FIELD = {
  workspace_name: { type: String, minLength: L.name.min, maxLength: L.name.max, example: 'Acme Aerial' },
  plan: { enum: [...PLANS], description: 'API access needs `enterprise`', example: 'enterprise' },
  project_limit: {
    type: 'integer',
    minimum: L.projectLimit.min,
    maximum: L.projectLimit.max,
    nullable: true,
    description: 'Maximum number of projects; null (or absent on create) = unlimited',
    example: 100,
  },
  email: {
    type: String,
    format: 'email',
    minLength: ML.email.min,
    maxLength: ML.email.max,
    description: 'Unique in the workspace (case-insensitive)',
    example: 'pat@example.com',
  },
  role: { enum: [...MEMBER_ROLES], enumName: 'MemberRole', example: 'pilot' },
  first_name: { type: String, maxLength: ML.firstName, nullable: true, example: 'Pat' },
  last_name: { type: String, maxLength: ML.lastName, nullable: true, example: 'Jensen' },
  title: { type: String, maxLength: ML.title, nullable: true, description: 'Job title', example: 'Senior pilot' },
  phone_number: { type: String, maxLength: ML.phoneNumber, nullable: true, example: '+45 12 34 56 78' },
  profile_picture: {
    type: String,
    format: 'uri',
    maxLength: ML.profilePicture,
    nullable: true,
    description: 'An http(s) URL',
    example: 'https://cdn.example.com/avatars/pat.png',
  },
  key_name: { type: String, minLength: L.apiKeyName.min, maxLength: L.apiKeyName.max, example: 'Ops bot' },
  scope: {
    enum: [...API_KEY_SCOPES],
    description: '`read_only`: GET only; `full_access`: every method',
    example: 'full_access',
  },
} satisfies Record<string, ApiPropertyOptions>;

export const CreatedApiKeySchema = schemaOf(
  { name: 'CreatedApiKey', description: 'The new API key: the full key is shown only in this response.' },
  {
    id: { example: EXAMPLE.apiKeyId },
    key: {
      description: `The key to send as \`Authorization: Bearer <key>\`; begins with \`${API_KEY_PREFIX}\`. Only its hash is stored: a lost key cannot be recovered.`,
      pattern: `^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`,
      example: `${API_KEY_PREFIX}Xq3kT9LmN8vB5cR7wZa2Yd4Fg6Hj8Kl0Pq2Rs4Tu6Wy`,
    },
  },
);
