import { Query } from '@nestjs/cqrs';
import { Actor } from '@app/domain';

/** Why and when a paused subscription was paused, as its history records it. */
export type WebhookPause =
  | { reason: 'consecutive_failures' | 'gone'; at: number; failure_count: number }
  | { reason: 'by_hand'; at: number; actor: Actor };

/**
 * The pause behind a paused subscription's status, read from its event stream (the read model
 * keeps the status only); null for an active one. For the dashboard's pages, never the API.
 */
export class GetWebhookPauseQuery extends Query<WebhookPause | null> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
  ) {
    super();
  }
}
