import { API_KEY_PREFIX } from '@app/application';
import { EXAMPLE } from './common.schema';
import { schemaOf } from './schema-table';

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
