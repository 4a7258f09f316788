import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (docs/operator-contract.md "Webhook deliveries"): a secret is `whsec_` + lowercase
 * hex whose length is a multiple of 4, the HMAC key is the base64 decoding of the text after the
 * prefix (as every Standard Webhooks library does; hex digits are valid base64), and a signature is
 * `v1,` + base64(HMAC-SHA256(key, "<id>.<timestamp>.<body>")).
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_FORMAT = /^whsec_(?:[0-9a-f]{4})+$/;

/** 32 random bytes as 64 hex digits: 48 bytes of HMAC key once base64-decoded, 256 bits of entropy. */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('hex');
}

function hmacKey(secret: string): Buffer {
  if (!WEBHOOK_SECRET_FORMAT.test(secret)) throw new Error('Malformed webhook secret');
  return Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
}

export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', hmacKey(secret)).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The headers of one attempt: signed anew (fresh timestamp) by every secret that currently signs. */
export function webhookHeaders(messageId: string, timestampSeconds: number, body: string, secrets: readonly string[]) {
  return {
    'content-type': 'application/json',
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => signWebhook(secret, messageId, timestampSeconds, body)).join(' '),
  };
}

/**
 * The `webhook-id` of the delivery of one event to one subscription: derived, not drawn, so a
 * fan-out replayed after a crash produces the same id and the queue ignores the duplicate.
 */
export function deliveryIdOf(eventId: string, webhookId: string): string {
  return `msg_${createHash('sha256').update(`${eventId}\n${webhookId}`).digest('hex').slice(0, 32)}`;
}

export function randomMessageId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}
