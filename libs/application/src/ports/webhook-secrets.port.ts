import type { SealedSecret } from '@app/domain';

/**
 * Keeps webhook signing secrets out of the event history in clear: the create and rotate handlers
 * seal a new secret, and only the dispatcher opens it to sign. Sealing binds the ciphertext to its
 * webhook id, so a sealed secret copied to another webhook does not open.
 */
export const WEBHOOK_SECRET_BOX = Symbol('WebhookSecretBox');

export interface WebhookSecretBox {
  seal(secret: string, webhookId: string): SealedSecret;
  /** Throws when the sealed value was altered, belongs to another webhook, or its key is unknown. */
  open(sealed: SealedSecret, webhookId: string): string;
}
