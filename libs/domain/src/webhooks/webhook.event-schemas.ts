import { EventSchema } from '../shared/event-schema';
import { WebhookEvent } from './webhook.events';

/** Schema versions of the webhooks events; every type is listed (the compiler checks), each with its upcasters. */
export const WEBHOOK_EVENT_SCHEMAS = {
  'webhook.created': { version: 1 },
  'webhook.updated': { version: 1 },
  'webhook.secret_rotated': { version: 1 },
  // Delivery telemetry lives in the delivery store since 004; older histories hold these.
  'webhook.delivery_attempted': { version: 1, retired: true },
  'webhook.deliveries_attempted': { version: 1, retired: true },
  'webhook.auto_paused': { version: 1 },
  'webhook.deleted': { version: 1 },
} as const satisfies Record<WebhookEvent['type'], EventSchema>;
