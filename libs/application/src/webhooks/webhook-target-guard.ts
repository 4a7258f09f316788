import { Inject, Injectable } from '@nestjs/common';
import { addressLiteralOf, isPublicAddress, validationError, WEBHOOK_MESSAGES } from '@app/domain';
import { HOST_RESOLVER, HostResolver } from '../ports/webhook-transport.port';
import { WEBHOOK_SETTINGS, WebhookSettings } from './webhook-settings';

/** How long a create or update waits for DNS before judging by what it has. */
const RESOLVE_TIMEOUT_MS = 2_000;

/**
 * The SSRF check of a subscription URL when it is created or changed: the host, or every address
 * it resolves to now, must be public. A name that does not resolve yet is accepted (DNS is often
 * set up after the subscription); the check that protects is the one the transport makes at
 * delivery time, on the address it then connects to.
 */
@Injectable()
export class WebhookTargetGuard {
  constructor(
    @Inject(HOST_RESOLVER) private readonly resolver: HostResolver,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
  ) {}

  async assertAllowed(url: URL): Promise<void> {
    if (this.settings.allowPrivateTargets) return;
    const host = url.hostname.toLowerCase();
    if (host === 'localhost' || host.endsWith('.localhost')) throw validationError(WEBHOOK_MESSAGES.urlNotPublic);
    const literal = addressLiteralOf(host);
    const addresses = literal !== null ? [literal] : await this.resolver.resolve(host, RESOLVE_TIMEOUT_MS);
    if (addresses.some((address) => !isPublicAddress(address))) throw validationError(WEBHOOK_MESSAGES.urlNotPublic);
  }
}
