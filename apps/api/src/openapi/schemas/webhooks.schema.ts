import { ApiPropertyOptions } from '@nestjs/swagger';
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
  WEBHOOK_ANSWERS,
  WEBHOOK_LIMITS,
  WEBHOOK_URL_MAX_LENGTH,
  WEBHOOK_URL_PREFIX,
  WebhookCreatedBy,
  WebhookView,
} from '@app/domain';
import { EXAMPLE, millis, NEXT_CURSOR, PAGE_COUNT } from './common.schema';
import { schemaOf } from './schema-table';

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

export const WebhookCreatedBySchema = schemaOf<WebhookCreatedBy>(
  { name: 'WebhookCreatedBy', description: 'Who created the subscription.' },
  {
    id: { example: EXAMPLE.apiKeyId },
    email: { type: String, nullable: true, example: null },
    first_name: {
      type: String,
      nullable: true,
      description: 'The API key name for API-key-created subscriptions',
      example: 'Ops bot',
    },
    last_name: { type: String, nullable: true, example: null },
  },
);

/** `url` and `event_types` as responses show them: the request's bounds, without its advice. */
const SHOWN_URL = { ...WEBHOOK_FIELD.url, pattern: undefined, description: undefined };
const SHOWN_EVENT_TYPES = { ...WEBHOOK_FIELD.event_types, description: undefined };

export const WebhookSchema = schemaOf<WebhookView>(
  { name: 'Webhook', description: 'A webhook subscription (docs/api.md, Webhooks); the secret is never shown here.' },
  {
    id: { example: EXAMPLE.webhookId },
    name: WEBHOOK_FIELD.name,
    url: SHOWN_URL,
    event_types: SHOWN_EVENT_TYPES,
    status: { ...WEBHOOK_FIELD.status, description: 'Paused subscriptions receive nothing' },
    failure_count: { type: 'integer', minimum: 0, description: 'Consecutive failed delivery attempts', example: 0 },
    created: millis(),
    updated: millis(),
    created_by: { type: () => WebhookCreatedBySchema, nullable: true },
    last_triggered_at: millis('Unix time in milliseconds of the last delivery attempt; null if never', {
      nullable: true,
    }),
  },
);

export const WebhookListSchema = schemaOf<WebhookList>(
  { name: 'WebhookList', description: 'A page of webhook subscriptions, oldest first.' },
  { webhooks: { type: () => [WebhookSchema] }, count: PAGE_COUNT, cursor: NEXT_CURSOR },
);

const SECRET = {
  description: 'The signing secret (Standard Webhooks): shown only in this response; store it now',
  pattern: '^whsec_[0-9a-f]+$',
  example: SECRET_EXAMPLE,
};

export const CreatedWebhookSchema = schemaOf<CreatedWebhook & { message: string }>(
  { name: 'CreatedWebhook', description: 'The new subscription, with its secret (shown only here).' },
  {
    id: { example: EXAMPLE.webhookId },
    name: WEBHOOK_FIELD.name,
    url: SHOWN_URL,
    event_types: SHOWN_EVENT_TYPES,
    status: { enum: ['active'], description: 'Always `active`', example: 'active' },
    secret: SECRET,
    created: millis(),
    message: { example: WEBHOOK_ANSWERS.created },
  },
);

export const DeliveryAttemptSchema = schemaOf<DeliveryAttemptView>(
  { name: 'DeliveryAttempt', description: 'One delivery attempt from the attempt log.' },
  {
    delivery_id: {
      description: 'The `webhook-id` header: the same on every retry of one delivery',
      example: 'msg_2Yw7Kd9Lq4Zr8Tx1Vb6N',
    },
    event_type: { example: 'project.updated' },
    attempt: { type: 'integer', minimum: 1, example: 1 },
    attempted_at: millis(),
    succeeded: { description: 'true for a 2xx answer only', example: true },
    response_status: { type: 'integer', nullable: true, description: 'null when no HTTP answer came', example: 200 },
    response_body: { type: String, nullable: true, description: 'The first 4 KB of the answer', example: 'ok' },
    duration_ms: { type: 'integer', minimum: 0, example: 87 },
    error: { type: String, nullable: true, description: 'Why the attempt failed, when it did', example: null },
    next_retry_at: millis('When the next attempt is due; null when none follows', { nullable: true }),
  },
);

export const DeliveryAttemptListSchema = schemaOf<DeliveryAttemptList>(
  { name: 'DeliveryAttemptList', description: 'A page of the attempt log, newest first.' },
  { deliveries: { type: () => [DeliveryAttemptSchema] }, count: PAGE_COUNT, cursor: NEXT_CURSOR },
);

export const TestDeliveryResultSchema = schemaOf(
  { name: 'TestDeliveryResult', description: 'Outcome of a `webhook.test` delivery.' },
  {
    message: {
      enum: [WEBHOOK_ANSWERS.testSucceeded, WEBHOOK_ANSWERS.testFailed],
      example: WEBHOOK_ANSWERS.testSucceeded,
    },
    delivery: { type: () => DeliveryAttemptSchema },
  },
);

export const RecoverResultSchema = schemaOf(
  { name: 'RecoverResult', description: 'Failed deliveries queued again.' },
  {
    message: { example: '3 failed deliveries queued again' },
    count: { type: 'integer', minimum: 0, example: 3 },
  },
);

export const RotatedSecretSchema = schemaOf<RotatedSecret & { message: string }>(
  {
    name: 'RotatedSecret',
    description: 'The new secret (shown only here); the previous one keeps signing for 24 hours.',
  },
  {
    id: { example: EXAMPLE.webhookId },
    secret: SECRET,
    previous_secret_expires_at: millis('Until then deliveries carry a second signature made with the previous secret'),
    message: { example: WEBHOOK_ANSWERS.secretRotated },
  },
);
