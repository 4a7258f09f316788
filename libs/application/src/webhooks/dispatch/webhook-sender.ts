import { signingSecrets, WebhookSecrets } from '@app/domain';
import { Clock } from '../../ports/clock.port';
import { WebhookSecretBox } from '../../ports/webhook-secrets.port';
import { WebhookTransport } from '../../ports/webhook-transport.port';
import { dropOldest } from '../../shared/drop-oldest';
import { webhookHeaders } from '../webhook-signature';
import { WebhookSettings } from '../webhook-settings';
import { parseRetryAfter } from './retry-policy';

export interface DeliveryTarget {
  webhookId: string;
  url: string;
  secrets: WebhookSecrets;
}

export interface AttemptOutcome {
  attemptedAt: number;
  durationMs: number;
  /** Only a 2xx answer counts. */
  succeeded: boolean;
  /** 410 Gone: the receiver wants no more deliveries. */
  gone: boolean;
  /** The caller aborted (shutdown): the attempt's result is unknown and must not be recorded. */
  aborted: boolean;
  responseStatus: number | null;
  responseBody: string | null;
  /** The receiver's `Retry-After` on 429 / 503, in ms. */
  retryAfterMs: number | null;
  error: string | null;
}

const USER_AGENT = 'WorkspaceOperations-Webhooks/1';
/** Opened secrets kept in memory (by webhook and sealed value), so a burst opens each once. */
const OPENED_SECRETS_KEPT = 1_000;

/**
 * Makes one signed attempt: opens the secrets that sign at this moment (the current one, and the
 * previous one during a rotation overlap), signs the exact body with a fresh timestamp, and sends
 * it through the transport. Shared by the delivery worker and the test endpoint.
 */
export class WebhookSender {
  private readonly opened = new Map<string, string>();

  constructor(
    private readonly transport: WebhookTransport,
    private readonly secretBox: WebhookSecretBox,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
  ) {}

  async attempt(
    target: DeliveryTarget,
    message: { id: string; body: string },
    signal?: AbortSignal,
  ): Promise<AttemptOutcome> {
    const attemptedAt = this.clock.now();
    let secrets: string[];
    try {
      secrets = signingSecrets(target.secrets, attemptedAt).map((sealed) => this.open(sealed, target.webhookId));
    } catch {
      return failure(attemptedAt, 'The signing secret could not be decrypted; rotate the secret');
    }
    const headers = {
      ...webhookHeaders(message.id, Math.floor(attemptedAt / 1000), message.body, secrets),
      'user-agent': USER_AGENT,
    };
    const response = await this.transport.send(
      { url: target.url, headers, body: message.body, timeoutMs: this.settings.requestTimeoutMs },
      signal,
    );
    if (response.kind === 'error') {
      return { ...failure(attemptedAt, response.error), durationMs: response.durationMs, aborted: response.aborted };
    }
    const { status } = response;
    const succeeded = status >= 200 && status <= 299;
    return {
      attemptedAt,
      durationMs: response.durationMs,
      succeeded,
      gone: status === 410,
      aborted: false,
      responseStatus: status,
      responseBody: response.body,
      retryAfterMs: status === 429 || status === 503 ? parseRetryAfter(response.retryAfter, this.clock.now()) : null,
      error: succeeded ? null : status >= 300 && status <= 399 ? `Redirect (${status}) not followed` : null,
    };
  }

  /**
   * The secret box opens a sealed secret (AES-GCM) once; the clear secret then stays in this
   * process's memory, where signing needs it anyway. A rotation seals a new value, which is a new
   * entry; the oldest entries go beyond the limit.
   */
  private open(sealed: string, webhookId: string): string {
    const key = `${webhookId}\n${sealed}`;
    let secret = this.opened.get(key);
    if (secret === undefined) {
      secret = this.secretBox.open(sealed, webhookId);
      this.opened.set(key, secret);
      dropOldest(this.opened, OPENED_SECRETS_KEPT);
    }
    return secret;
  }
}

function failure(attemptedAt: number, error: string): AttemptOutcome {
  return {
    attemptedAt,
    durationMs: 0,
    succeeded: false,
    gone: false,
    aborted: false,
    responseStatus: null,
    responseBody: null,
    retryAfterMs: null,
    error,
  };
}
