import { webhookDecider, webhookStream } from '@app/domain';
import { CommandContext } from '../shared/command-context';
import { EmbeddedStores } from '../shared/embedded-stores.spec-helper';

/**
 * Records webhook `whk_1` (named Hook, URL https://hooks.example.com/in) in a workspace through its
 * decider, its sealed secret `v1.sealed-secret-material`: the text no history read may show.
 * Answers the webhook's stream.
 */
export async function recordWebhookWithSecret(
  stores: EmbeddedStores,
  workspaceId: string,
  context: CommandContext,
): Promise<string> {
  const stream = webhookStream('whk_1');
  await stores.repository.execute(
    webhookDecider,
    stream,
    {
      type: 'CreateWebhook',
      id: 'whk_1',
      workspaceId,
      name: 'Hook',
      url: 'https://hooks.example.com/in',
      eventTypes: ['project.created'],
      sealedSecret: 'v1.sealed-secret-material',
      createdBy: { id: 'key_1', email: null, first_name: 'Spec key', last_name: null },
      now: stores.clock.now(),
    },
    context,
  );
  return stream;
}
