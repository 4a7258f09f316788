import { Agent, request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { addressLiteralOf, classifyAddress } from '@app/domain';
import type { HostResolver, WebhookRequest, WebhookResponse, WebhookTransport } from '@app/application/ports';
import { CachedHostResolver } from './cached-host-resolver';
import { DnsHostResolver } from './dns-host-resolver';

export interface HttpsWebhookTransportOptions {
  /** Development and tests only: deliver to loopback and private addresses too. */
  allowPrivateTargets: boolean;
  resolver?: HostResolver;
  /** How much of a response body is kept for the attempt log. */
  keepBodyBytes?: number;
  /** Connections kept per receiver address. */
  maxSocketsPerHost?: number;
  /**
   * How long a name's addresses are reused (default 1 s; 0: resolve for every attempt). The
   * addresses are checked on every attempt all the same.
   */
  resolveCacheMs?: number;
}

/** Beyond this, a response body is not read at all: the connection is dropped instead. */
const MAX_DRAIN_BYTES = 64 * 1024;

/**
 * Webhook deliveries over HTTPS with the SSRF guard at the last possible moment: the host is
 * resolved here, every address it resolves to must be public (a name that also resolves to a
 * private address is refused, whichever address would have been used), and the connection goes
 * to the checked address itself (`host` is the IP; SNI and certificate identity use the name;
 * the Host header keeps the URL's host). Nothing resolves the name a second time, so DNS
 * rebinding between check and connect is impossible.
 *
 * Redirects are never followed (a 3xx is an answer like any other, and a failure), the whole
 * attempt has one deadline, and only the first few KB of a body are kept. Trust is Node's:
 * the bundled CAs plus NODE_EXTRA_CA_CERTS.
 *
 * Names are resolved at most once a second per name (CachedHostResolver); connections are kept
 * alive and reused per receiver address.
 */
export class HttpsWebhookTransport implements WebhookTransport {
  private readonly agent: Agent;
  private readonly resolver: HostResolver;
  private readonly keepBodyBytes: number;

  constructor(private readonly options: HttpsWebhookTransportOptions) {
    this.resolver = new CachedHostResolver(options.resolver ?? new DnsHostResolver(), options.resolveCacheMs ?? 1_000);
    this.keepBodyBytes = options.keepBodyBytes ?? 4096;
    this.agent = new Agent({
      keepAlive: true,
      maxSockets: options.maxSocketsPerHost ?? 32,
      scheduling: 'lifo',
      timeout: 30_000,
    });
  }

  async send(request: WebhookRequest, signal?: AbortSignal): Promise<WebhookResponse> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const fail = (error: string, flags: { blocked?: boolean; aborted?: boolean } = {}): WebhookResponse => ({
      kind: 'error',
      error,
      blocked: flags.blocked ?? false,
      aborted: flags.aborted ?? false,
      durationMs: elapsed(),
    });

    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return fail('Invalid URL');
    }
    if (url.protocol !== 'https:') return fail('Only https:// URLs are delivered to');

    const literal = addressLiteralOf(url.hostname);
    const addresses = literal !== null ? [literal] : await this.resolver.resolve(url.hostname, request.timeoutMs);
    if (signal?.aborted) return fail('Aborted', { aborted: true });
    if (addresses.length === 0) return fail(`Could not resolve ${url.hostname}`);
    if (!this.options.allowPrivateTargets) {
      for (const address of addresses) {
        const cls = classifyAddress(address);
        if (cls !== 'public')
          return fail(`Refused: ${url.hostname} resolves to a ${cls.replace('_', '-')} address`, { blocked: true });
      }
    }
    const remaining = request.timeoutMs - elapsed();
    if (remaining <= 0) return fail(`Timed out after ${request.timeoutMs} ms`);
    return this.post(url, addresses[0], literal === null, request, remaining, signal, elapsed, fail);
  }

  private post(
    url: URL,
    address: string,
    byName: boolean,
    request: WebhookRequest,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    elapsed: () => number,
    fail: (error: string, flags?: { blocked?: boolean; aborted?: boolean }) => WebhookResponse,
  ): Promise<WebhookResponse> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (result: WebhookResponse) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(result);
      };
      const req = httpsRequest({
        host: address,
        port: url.port ? Number(url.port) : 443,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        agent: this.agent,
        // SNI and the certificate check use the name; an address literal has no SNI.
        servername: byName ? url.hostname : undefined,
        headers: {
          ...request.headers,
          host: url.host,
          'content-length': String(Buffer.byteLength(request.body, 'utf8')),
        },
      });
      const timer = setTimeout(() => {
        req.destroy();
        finish(fail(`Timed out after ${request.timeoutMs} ms`));
      }, timeoutMs);
      const onAbort = () => {
        req.destroy();
        finish(fail('Aborted', { aborted: true }));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (error) => finish(fail(describe(error))));
      req.on('response', (res: IncomingMessage) => {
        const kept: Buffer[] = [];
        let keptBytes = 0;
        let seen = 0;
        const respond = () =>
          finish({
            kind: 'response',
            status: res.statusCode ?? 0,
            retryAfter: headerOf(res, 'retry-after'),
            body: Buffer.concat(kept).toString('utf8'),
            durationMs: elapsed(),
          });
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (keptBytes < this.keepBodyBytes) {
            const part = chunk.subarray(0, this.keepBodyBytes - keptBytes);
            kept.push(part);
            keptBytes += part.length;
          }
          if (seen > MAX_DRAIN_BYTES) {
            res.destroy();
            respond();
          }
        });
        res.on('end', respond);
        res.on('error', respond);
        res.on('close', respond);
      });
      // As a string, the body joins the head in one write (one TLS record) instead of two.
      req.end(request.body, 'utf8');
    });
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }
}

function headerOf(res: IncomingMessage, name: string): string | null {
  const value = res.headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/** Errors for the attempt log: the cause in a few words, never a stack. */
function describe(error: Error & { code?: string }): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'Connection refused';
    case 'ECONNRESET':
      return 'Connection reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'Host unreachable';
    default:
      return error.code ? `${error.code}: ${error.message}` : error.message;
  }
}
