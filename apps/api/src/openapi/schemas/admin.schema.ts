import { API_KEY_PREFIX } from '@app/application';
import { EXAMPLE, millis } from './common.schema';
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

export const DashboardLinkSchema = schemaOf(
  {
    name: 'DashboardLink',
    description:
      'A one-time sign-in link to the workspace dashboard for one member: it works once, until `expires_at` (docs/dashboard.md).',
  },
  {
    url: {
      format: 'uri',
      description:
        'The link to hand to the member: PUBLIC_URL, else the protocol and host of this request, then `/dashboard/sign-in?token=...`. Only a digest of the token is stored.',
      example: 'https://ops.example.com/dashboard/sign-in?token=3q2-7wAAAAC8y2lQm0v5Hn1kP4rT9sXcZaB6dE8fG0h',
    },
    expires_at: millis(
      'When the link stops working (Unix time in milliseconds): 15 minutes after it was minted by default',
    ),
  },
);
