export * from './webhook-settings';
export * from './webhook-signature';
export * from './webhook-target-guard';
export * from './webhook.projector';
export * from './resource-views';
export * from './dispatch/retry-policy';
export * from './dispatch/webhook-sender';
export * from './dispatch/webhook-fanout';
export * from './dispatch/delivery-worker';
export * from './dispatch/webhook-dispatcher';
export * from './commands/webhook.commands';
export * from './commands/webhook.handlers';
export * from './queries/webhook.queries';

import {
  CreateWebhookHandler,
  DeleteWebhookHandler,
  RecoverWebhookDeliveriesHandler,
  RotateWebhookSecretHandler,
  TestWebhookHandler,
  UpdateWebhookHandler,
} from './commands/webhook.handlers';
import { GetWebhookHandler, ListWebhookDeliveriesHandler, ListWebhooksHandler } from './queries/webhook.queries';
import { WebhookTargetGuard } from './webhook-target-guard';

/** What the composition root registers for webhooks (the ports and the dispatcher are bound there). */
export const WEBHOOK_HANDLERS = [
  WebhookTargetGuard,
  CreateWebhookHandler,
  UpdateWebhookHandler,
  DeleteWebhookHandler,
  RotateWebhookSecretHandler,
  TestWebhookHandler,
  RecoverWebhookDeliveriesHandler,
  GetWebhookHandler,
  ListWebhooksHandler,
  ListWebhookDeliveriesHandler,
];
