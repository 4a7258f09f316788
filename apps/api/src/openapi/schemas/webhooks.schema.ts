import { ApiProperty, ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';
import type {
  CreatedWebhook,
  DeliveryAttemptList,
  DeliveryAttemptView,
  RotatedSecret,
  WebhookList,
} from '@app/application';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_STATUSES,
  WEBHOOK_LIMITS,
  WEBHOOK_URL_MAX_LENGTH,
  WEBHOOK_URL_PREFIX,
  WebhookCreatedBy,
  WebhookEventType,
  WebhookStatus,
  WebhookView,
} from '@app/domain';
import { EXAMPLE, Millis, NextCursor, PageCount } from './common.schema';

const SECRET_EXAMPLE = 'whsec_3f9a1c0e7b2d4a6f8c1e3b5d7f9a2c4e6b8d0f1a3c5e7b9d2f4a6c8e0b1d3f5a';

export const WEBHOOK_FIELD = {
  name: {
    type: String,
    minLength: WEBHOOK_LIMITS.name.min,
    maxLength: WEBHOOK_LIMITS.name.max,
    example: 'Ops notifications',
  },
  url: {
    type: String,
    format: 'uri',
    maxLength: WEBHOOK_URL_MAX_LENGTH,
    pattern: `^${WEBHOOK_URL_PREFIX}`,
    description: 'Must begin with https:// and point to a public address',
    example: 'https://hooks.example.com/workspace-ops',
  },
  event_types: {
    enum: [...WEBHOOK_EVENT_TYPES],
    enumName: 'WebhookEventType',
    isArray: true,
    minItems: 1,
    description: 'The webhook events to receive (docs/api.md, Webhook events); a repeated type is kept once',
    example: ['project.created', 'job.updated'],
  },
  status: {
    enum: [...WEBHOOK_STATUSES],
    description: 'Setting `active` resets `failure_count` to 0',
    example: 'active',
  },
} satisfies Record<string, ApiPropertyOptions>;

@ApiSchema({ name: 'WebhookCreatedBy', description: 'Who created the subscription.' })
export class WebhookCreatedBySchema implements WebhookCreatedBy {
  @ApiProperty({ example: EXAMPLE.apiKeyId })
  id!: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  email!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The API key name for API-key-created subscriptions',
    example: 'Ops bot',
  })
  first_name!: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  last_name!: string | null;
}

@ApiSchema({
  name: 'Webhook',
  description: 'A webhook subscription (docs/api.md, Webhooks); the secret is never shown here.',
})
export class WebhookSchema implements WebhookView {
  @ApiProperty({ example: EXAMPLE.webhookId })
  id!: string;

  @ApiProperty(WEBHOOK_FIELD.name)
  name!: string;

  @ApiProperty({ ...WEBHOOK_FIELD.url, pattern: undefined, description: undefined })
  url!: string;

  @ApiProperty({ ...WEBHOOK_FIELD.event_types, description: undefined })
  event_types!: WebhookEventType[];

  @ApiProperty({ ...WEBHOOK_FIELD.status, description: 'Paused subscriptions receive nothing' })
  status!: WebhookStatus;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Consecutive failed delivery attempts', example: 0 })
  failure_count!: number;

  @Millis()
  created!: number;

  @Millis()
  updated!: number;

  @ApiProperty({ type: () => WebhookCreatedBySchema, nullable: true })
  created_by!: WebhookCreatedBy | null;

  @Millis('Unix time in milliseconds of the last delivery attempt; null if never', { nullable: true })
  last_triggered_at!: number | null;
}

@ApiSchema({ name: 'WebhookList', description: 'A page of webhook subscriptions, oldest first.' })
export class WebhookListSchema implements WebhookList {
  @ApiProperty({ type: () => [WebhookSchema] })
  webhooks!: WebhookView[];

  @PageCount()
  count!: number;

  @NextCursor()
  cursor!: string | null;
}

const SecretProperty = () =>
  ApiProperty({
    description: 'The signing secret (Standard Webhooks): shown only in this response; store it now',
    pattern: '^whsec_[0-9a-f]+$',
    example: SECRET_EXAMPLE,
  });

@ApiSchema({ name: 'CreatedWebhook', description: 'The new subscription, with its secret (shown only here).' })
export class CreatedWebhookSchema implements CreatedWebhook {
  @ApiProperty({ example: EXAMPLE.webhookId })
  id!: string;

  @ApiProperty(WEBHOOK_FIELD.name)
  name!: string;

  @ApiProperty({ ...WEBHOOK_FIELD.url, pattern: undefined, description: undefined })
  url!: string;

  @ApiProperty({ ...WEBHOOK_FIELD.event_types, description: undefined })
  event_types!: WebhookEventType[];

  @ApiProperty({ enum: ['active'], description: 'Always `active`', example: 'active' })
  status!: WebhookStatus;

  @SecretProperty()
  secret!: string;

  @Millis()
  created!: number;

  @ApiProperty({ example: 'Webhook created successfully. Store the secret now: it is not shown again.' })
  message!: string;
}

@ApiSchema({ name: 'DeliveryAttempt', description: 'One delivery attempt from the attempt log.' })
export class DeliveryAttemptSchema implements DeliveryAttemptView {
  @ApiProperty({
    description: 'The `webhook-id` header: the same on every retry of one delivery',
    example: 'msg_2Yw7Kd9Lq4Zr8Tx1Vb6N',
  })
  delivery_id!: string;

  @ApiProperty({ example: 'project.updated' })
  event_type!: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  attempt!: number;

  @Millis()
  attempted_at!: number;

  @ApiProperty({ description: 'true for a 2xx answer only', example: true })
  succeeded!: boolean;

  @ApiProperty({ type: 'integer', nullable: true, description: 'null when no HTTP answer came', example: 200 })
  response_status!: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'The first 4 KB of the answer', example: 'ok' })
  response_body!: string | null;

  @ApiProperty({ type: 'integer', minimum: 0, example: 87 })
  duration_ms!: number;

  @ApiProperty({ type: String, nullable: true, description: 'Why the attempt failed, when it did', example: null })
  error!: string | null;

  @Millis('When the next attempt is due; null when none follows', { nullable: true })
  next_retry_at!: number | null;
}

@ApiSchema({ name: 'DeliveryAttemptList', description: 'A page of the attempt log, newest first.' })
export class DeliveryAttemptListSchema implements DeliveryAttemptList {
  @ApiProperty({ type: () => [DeliveryAttemptSchema] })
  deliveries!: DeliveryAttemptView[];

  @PageCount()
  count!: number;

  @NextCursor()
  cursor!: string | null;
}

@ApiSchema({ name: 'TestDeliveryResult', description: 'Outcome of a `webhook.test` delivery.' })
export class TestDeliveryResultSchema {
  @ApiProperty({ enum: ['Test delivery succeeded', 'Test delivery failed'], example: 'Test delivery succeeded' })
  message!: string;

  @ApiProperty({ type: () => DeliveryAttemptSchema })
  delivery!: DeliveryAttemptView;
}

@ApiSchema({ name: 'RecoverResult', description: 'Failed deliveries queued again.' })
export class RecoverResultSchema {
  @ApiProperty({ example: '3 failed deliveries queued again' })
  message!: string;

  @ApiProperty({ type: 'integer', minimum: 0, example: 3 })
  count!: number;
}

@ApiSchema({
  name: 'RotatedSecret',
  description: 'The new secret (shown only here); the previous one keeps signing for 24 hours.',
})
export class RotatedSecretSchema implements RotatedSecret {
  @ApiProperty({ example: EXAMPLE.webhookId })
  id!: string;

  @SecretProperty()
  secret!: string;

  @Millis('Until then deliveries carry a second signature made with the previous secret')
  previous_secret_expires_at!: number;

  @ApiProperty({ example: 'Webhook secret rotated. Store the new secret now: it is not shown again.' })
  message!: string;
}

export const RECOVER_FIELD = {
  since: {
    type: 'integer',
    format: 'int64',
    minimum: 0,
    description: 'Unix time in milliseconds: failed deliveries created from then',
    example: EXAMPLE.time,
  },
  until: {
    type: 'integer',
    format: 'int64',
    minimum: 0,
    description: 'Unix time in milliseconds, after `since`: up to then (exclusive); default now',
    example: EXAMPLE.time + 86_400_000,
  },
} satisfies Record<string, ApiPropertyOptions>;
