/**
 * Outbound HTTPS for webhook deliveries. The adapter resolves the host, refuses the request when
 * any resolved address is not public (unless private targets are allowed), connects to the very
 * address it checked, never follows redirects and gives up after the timeout.
 */
export const WEBHOOK_TRANSPORT = Symbol('WebhookTransport');

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export type WebhookResponse =
  | {
      kind: 'response';
      status: number;
      /** The raw `Retry-After` header, if any. */
      retryAfter: string | null;
      /** The first few KB of the body, as text. */
      body: string;
      durationMs: number;
    }
  | {
      kind: 'error';
      /** Why no response arrived, for the attempt log (never contains secrets). */
      error: string;
      /** True when the SSRF policy refused the target: no connection was made. */
      blocked: boolean;
      /** True when the caller aborted the request (shutdown). */
      aborted: boolean;
      durationMs: number;
    };

export interface WebhookTransport {
  send(request: WebhookRequest, signal?: AbortSignal): Promise<WebhookResponse>;
  close(): Promise<void>;
}

/** Resolves host names for the SSRF check made when a subscription is created or updated. */
export const HOST_RESOLVER = Symbol('HostResolver');

export interface HostResolver {
  /** Every address the name resolves to; an empty list when it does not resolve (now). */
  resolve(hostname: string, timeoutMs: number): Promise<string[]>;
}
