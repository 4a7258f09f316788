import { createdWebhookFields, WebhookEvent, webhookView } from '@app/domain';
import { RecordedEvent } from '../ports/event-store.port';
import { WriteOp } from '../ports/read-model.port';
import { Projector, putCreated } from '../projections/projector';

export const WEBHOOKS = 'webhooks';

/** Webhooks as GET /webhooks shows them (docs/api.md, Webhooks). The sealed secret stays in the event history only. */
export const webhookProjector: Projector = {
  name: 'webhooks',
  collections: [{ name: WEBHOOKS }],
  project(recorded: RecordedEvent): WriteOp[] {
    const event = recorded as unknown as WebhookEvent;
    const version = recorded.revision;
    /** Sets fields of the webhook, at the event's revision. */
    const merge = (id: string, set: Record<string, unknown>): WriteOp[] => [
      { op: 'merge', collection: WEBHOOKS, id, version, set },
    ];
    switch (event.type) {
      case 'webhook.created': {
        const d = event.data;
        const doc = webhookView(d.id, createdWebhookFields(d));
        return [putCreated(recorded, WEBHOOKS, d.id, d.workspace_id, doc)];
      }
      case 'webhook.updated':
        return merge(event.data.id, { ...event.data.changes, updated: event.data.updated });
      case 'webhook.secret_rotated':
        return merge(event.data.id, { updated: event.data.updated });
      case 'webhook.delivery_attempted':
        return merge(event.data.id, {
          failure_count: event.data.failure_count,
          last_triggered_at: event.data.attempted_at,
        });
      case 'webhook.deliveries_attempted':
        return merge(event.data.id, {
          failure_count: event.data.failure_count,
          last_triggered_at: event.data.last_triggered_at,
        });
      case 'webhook.auto_paused':
        return merge(event.data.id, {
          status: 'paused',
          failure_count: event.data.failure_count,
          updated: event.data.updated,
        });
      case 'webhook.deleted':
        return [{ op: 'delete', collection: WEBHOOKS, id: event.data.id }];
      default:
        return [];
    }
  },
};
