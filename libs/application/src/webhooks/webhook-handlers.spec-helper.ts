import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SqliteWebhookQueue } from '@app/infrastructure/sqlite';
import { AesGcmSecretBox } from '@app/infrastructure/webhooks';
import { timeOrderedIds } from '../shared/time-ordered-ids';
import { CommandContext } from '../shared/command-context';
import { EmbeddedStores, useEmbeddedStores } from '../shared/embedded-stores.spec-helper';
import { CreateWebhookCommand } from './create-webhook/create-webhook.command';
import { CreateWebhookHandler } from './create-webhook/create-webhook.handler';
import { WEBHOOK_DEFAULTS } from './webhook-settings';
import { WebhookTargetGuard } from './webhook-target-guard';

/**
 * The webhook handlers' collaborators on the embedded adapters: the SQLite delivery store, the
 * AES-GCM secret box, and the SSRF guard with a resolver the spec fills in (`resolves`), so that
 * a name's addresses are what the test says rather than what the machine's DNS answers.
 */
export interface WebhookFixture {
  readonly stores: EmbeddedStores;
  readonly queue: SqliteWebhookQueue;
  readonly box: AesGcmSecretBox;
  readonly guard: WebhookTargetGuard;
  readonly resolves: Map<string, string[]>;
  /** A webhook created through CreateWebhookHandler in the context's workspace. */
  create(context: CommandContext, url?: string): Promise<{ id: string; secret: string; created: number }>;
}

export const PUBLIC_URL = 'https://hooks.example.com/in';

export function useWebhookFixture(): WebhookFixture {
  const stores = useEmbeddedStores('wos-webhooks-');
  const fixture = { stores, resolves: new Map<string, string[]>() } as {
    -readonly [K in keyof WebhookFixture]: WebhookFixture[K];
  };
  beforeEach(() => {
    fixture.resolves.clear();
    fixture.resolves.set('hooks.example.com', ['93.184.216.34']);
    fixture.queue = new SqliteWebhookQueue(join(stores.dir, 'webhooks.db'));
    fixture.box = new AesGcmSecretBox(randomBytes(32));
    fixture.guard = new WebhookTargetGuard(
      { resolve: async (host) => fixture.resolves.get(host) ?? [] },
      { retryDelaysMs: [0], pauseAfterFailures: 5, allowPrivateTargets: false, ...WEBHOOK_DEFAULTS },
    );
    fixture.create = (context, url = PUBLIC_URL) =>
      new CreateWebhookHandler(stores.repository, fixture.guard, stores.clock, timeOrderedIds, fixture.box).execute(
        new CreateWebhookCommand(context, { name: 'Spec hook', url, event_types: ['project.created'] }),
      );
  });
  afterEach(async () => {
    await fixture.queue.close();
  });
  return fixture;
}
