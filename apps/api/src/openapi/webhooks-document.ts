import type { OpenAPIObject } from '@nestjs/swagger';
import { TEST_EVENT_TYPE, WEBHOOK_RESOURCES } from '@app/application';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from '@app/domain';
import { Json } from './json';

/**
 * OpenAPI 3.1's top-level `webhooks`: the deliveries the service POSTs to a subscription's URL,
 * so that a receiver's types are generated from the same document as a client's. One entry per
 * event type a subscription may list, plus the test delivery (docs/webhooks.md, "Payloads" and
 * "Headers and signature").
 *
 * What is read from the code rather than restated: the event types (WEBHOOK_EVENT_TYPES), which
 * resource each one carries (WEBHOOK_RESOURCES, the registration point of
 * libs/application/src/webhooks/resource-views.ts), and the test delivery's type. A new event type
 * without a payload schema below fails `webhooksOf` at startup, rather than being left out.
 */

/** The resource each kind of delivery carries in `data` while it exists, as its GET answers it. */
const LIVE_VIEW: Record<string, string> = { project: 'Project', job: 'Job', job_type: 'JobType' };

/** `data` of a deletion: the identifiers only (`resource-views.ts`, `payload`). */
const DELETED: Record<string, Json> = {
  project: {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', example: 'prj_3kT9xq2LmN8vB5cR7wZa' } },
  },
  job: {
    type: 'object',
    required: ['id', 'project_id'],
    properties: {
      id: { type: 'string', example: 'job_9Xc4RtY7uI2oP5aS8dFg' },
      project_id: { type: 'string', example: 'prj_3kT9xq2LmN8vB5cR7wZa' },
    },
  },
  job_type: {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', example: 'jbt_H6jK1lZ3xC5vB7nM9qWe' } },
  },
};

const TEST_DATA: Json = {
  type: 'object',
  required: ['webhook_id', 'message'],
  properties: {
    webhook_id: { type: 'string', example: 'whk_5Df7Gh9Jk1Lz3Xc5Vb7N' },
    message: { type: 'string', example: 'This is a test delivery.' },
  },
};

/** The signature headers of every attempt (webhook-signature.ts, `webhookHeaders`). */
const SIGNATURE_HEADERS: Json[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description:
      'The delivery: one per event and subscription, the same on every retry. Use it to ignore a delivery already processed.',
    schema: { type: 'string', pattern: '^msg_[0-9a-f]{32}$', example: 'msg_3f2a9c4e1b7d4f0a8e6c5b2d1a0f9e8d' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description:
      'Unix seconds, set and signed anew on every attempt. Refuse a delivery more than 5 minutes off your clock.',
    schema: { type: 'string', pattern: '^[0-9]+$', example: '1767225600' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64>` signatures: HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64 decoding of the secret after `whsec_` (Standard Webhooks). During a secret rotation there is one per secret still signing; accept the delivery when any of them verifies.',
    schema: {
      type: 'string',
      pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$',
      example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    },
  },
];

/** What the receiver's answer means to the sender (docs/webhooks.md, "Retries, failures, pausing"). */
const RECEIVER_ANSWERS: Json = {
  '200': {
    description:
      'Any 2xx acknowledges the delivery: it is not sent again. The body is ignored (the first 4 KB go to the attempt log).',
  },
  '410': { description: 'Gone: the delivery ends and the subscription is paused at once.' },
  '429': {
    description:
      'A failed attempt; a `Retry-After` longer than the retry schedule postpones the next attempt (at most 24 h).',
    headers: { 'Retry-After': { description: 'Seconds, or an HTTP date', schema: { type: 'string', example: '120' } } },
  },
  default: {
    description:
      'Anything else (a 3xx, which is never followed, another 4xx, a 5xx, no answer within 15 s) is a failed attempt, retried on the schedule; consecutive failures pause the subscription.',
  },
};

function envelope(type: string, data: Json, description: string): Json {
  return {
    type: 'object',
    description,
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { type: 'string', const: type, example: type },
      timestamp: {
        type: 'string',
        format: 'date-time',
        description: 'When the event was recorded (not when this attempt was sent)',
        example: '2026-03-01T10:15:02.113Z',
      },
      data,
    },
  };
}

/** `project.updated` -> `ProjectUpdatedDelivery`. */
const schemaName = (type: string) =>
  `${type
    .split(/[._]/)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('')}Delivery`;

function dataOf(type: WebhookEventType): { data: Json; description: string } {
  const resource = type.slice(0, type.lastIndexOf('.'));
  const delivered = WEBHOOK_RESOURCES.some((r) => Object.values(r.events).includes(type));
  if (!delivered) throw new Error(`No webhook resource delivers ${type} (resource-views.ts)`);
  if (type.endsWith('.deleted') && DELETED[resource]) {
    return {
      data: DELETED[resource],
      description: `The ${resource.replace('_', ' ')} was deleted: \`data\` holds its identifiers only.`,
    };
  }
  const view = LIVE_VIEW[resource];
  if (!view) throw new Error(`No payload schema for webhook event type ${type}`);
  return {
    data: { $ref: `#/components/schemas/${view}` },
    description: `\`data\` is the ${resource.replace('_', ' ')} exactly as its GET answers it right after the event, however late the delivery.`,
  };
}

function operation(type: string, schema: string, summary: string, description: string): Json {
  return {
    post: {
      operationId: `webhook_${type.replace(/[^a-z]/g, '_')}`,
      summary,
      description: `${description}\n\nSent at least once, as \`POST\` with a JSON body, to the subscription's URL; retries carry the same \`webhook-id\`.`,
      tags: ['Webhooks'],
      // Deliveries carry no bearer token: their authenticity is the signature in the headers.
      security: [],
      parameters: SIGNATURE_HEADERS,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
      },
      responses: RECEIVER_ANSWERS,
    },
  };
}

/** Adds `webhooks` and their payload schemas (components.schemas) to the document. */
export function addWebhooks(document: OpenAPIObject): OpenAPIObject {
  const schemas = ((document.components ??= {}).schemas ??= {}) as Json;
  const webhooks: Json = {};
  for (const type of WEBHOOK_EVENT_TYPES) {
    const { data, description } = dataOf(type);
    const name = schemaName(type);
    schemas[name] = envelope(type, data, description);
    webhooks[type] = operation(type, name, `${type} delivery`, description);
  }
  const name = schemaName(TEST_EVENT_TYPE);
  const description =
    'The test delivery of `POST /v1/webhooks/{webhookId}/test`, sent also to a paused subscription; it never changes `failure_count`.';
  schemas[name] = envelope(TEST_EVENT_TYPE, TEST_DATA, description);
  webhooks[TEST_EVENT_TYPE] = operation(TEST_EVENT_TYPE, name, `${TEST_EVENT_TYPE} delivery`, description);
  (document as Json).webhooks = webhooks;
  return document;
}
