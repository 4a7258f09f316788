import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { WebhookEvent, webhookStream } from '@app/domain';
import { EVENT_STORE, EventStore } from '../../ports/event-store.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { ownWebhookView } from '../webhook-access';
import { GetWebhookPauseQuery, WebhookPause } from './get-webhook-pause.query';

@QueryHandler(GetWebhookPauseQuery)
export class GetWebhookPauseHandler implements IQueryHandler<GetWebhookPauseQuery, WebhookPause | null> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ workspaceId, webhookId }: GetWebhookPauseQuery): Promise<WebhookPause | null> {
    const view = await ownWebhookView(this.read, workspaceId, webhookId);
    if (view.status !== 'paused') return null;
    // A subscription's stream records its changes of state only, so it is short; the last event
    // that paused it (and was not followed by a re-activation) is the answer.
    let pause: WebhookPause | null = null;
    for (const recorded of await this.events.readStream(webhookStream(webhookId))) {
      const event = recorded as unknown as WebhookEvent;
      if (event.type === 'webhook.auto_paused') {
        pause = { reason: event.data.reason, at: event.data.updated, failure_count: event.data.failure_count };
      } else if (event.type === 'webhook.updated' && event.data.changes.status === 'paused') {
        pause = { reason: 'by_hand', at: event.data.updated, actor: recorded.metadata.actor };
      } else if (event.type === 'webhook.updated' && event.data.changes.status === 'active') {
        pause = null;
      }
    }
    return pause;
  }
}
