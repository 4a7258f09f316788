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
export * from './webhook-access';
export * from './webhook-views';
export * from './count-webhook-attempts/count-webhook-attempts.query';
export * from './count-webhook-attempts/count-webhook-attempts.handler';
export * from './create-webhook/create-webhook.command';
export * from './create-webhook/create-webhook.handler';
export * from './update-webhook/update-webhook.command';
export * from './update-webhook/update-webhook.handler';
export * from './delete-webhook/delete-webhook.command';
export * from './delete-webhook/delete-webhook.handler';
export * from './rotate-webhook-secret/rotate-webhook-secret.command';
export * from './rotate-webhook-secret/rotate-webhook-secret.handler';
export * from './test-webhook/test-webhook.command';
export * from './test-webhook/test-webhook.handler';
export * from './recover-webhook-deliveries/recover-webhook-deliveries.command';
export * from './recover-webhook-deliveries/recover-webhook-deliveries.handler';
export * from './resend-webhook-delivery/resend-webhook-delivery.command';
export * from './resend-webhook-delivery/resend-webhook-delivery.handler';
export * from './get-webhook/get-webhook.query';
export * from './get-webhook-pause/get-webhook-pause.query';
export * from './get-webhook-pause/get-webhook-pause.handler';
export * from './get-webhook/get-webhook.handler';
export * from './list-webhooks/list-webhooks.query';
export * from './list-webhooks/list-webhooks.handler';
export * from './list-webhook-deliveries/list-webhook-deliveries.query';
export * from './list-webhook-deliveries/list-webhook-deliveries.handler';
export * from './get-delivery-overview/get-delivery-overview.query';
export * from './get-delivery-overview/get-delivery-overview.handler';

import { CreateWebhookHandler } from './create-webhook/create-webhook.handler';
import { UpdateWebhookHandler } from './update-webhook/update-webhook.handler';
import { DeleteWebhookHandler } from './delete-webhook/delete-webhook.handler';
import { RotateWebhookSecretHandler } from './rotate-webhook-secret/rotate-webhook-secret.handler';
import { TestWebhookHandler } from './test-webhook/test-webhook.handler';
import { RecoverWebhookDeliveriesHandler } from './recover-webhook-deliveries/recover-webhook-deliveries.handler';
import { ResendWebhookDeliveryHandler } from './resend-webhook-delivery/resend-webhook-delivery.handler';
import { GetWebhookHandler } from './get-webhook/get-webhook.handler';
import { GetWebhookPauseHandler } from './get-webhook-pause/get-webhook-pause.handler';
import { ListWebhooksHandler } from './list-webhooks/list-webhooks.handler';
import { ListWebhookDeliveriesHandler } from './list-webhook-deliveries/list-webhook-deliveries.handler';
import { CountWebhookAttemptsHandler } from './count-webhook-attempts/count-webhook-attempts.handler';
import { GetDeliveryOverviewHandler } from './get-delivery-overview/get-delivery-overview.handler';
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
  ResendWebhookDeliveryHandler,
  GetWebhookHandler,
  GetWebhookPauseHandler,
  ListWebhooksHandler,
  ListWebhookDeliveriesHandler,
  CountWebhookAttemptsHandler,
  GetDeliveryOverviewHandler,
];
