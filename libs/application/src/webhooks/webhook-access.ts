import {
  notFound,
  WEBHOOK_NOT_FOUND,
  WebhookCommand,
  webhookDecider,
  WebhookState,
  webhookStream,
  WebhookView,
} from '@app/domain';
import { ReadModelStore } from '../ports/read-model.port';
import { CommandContext } from '../shared/command-context';
import { EventSourcedRepository } from '../shared/event-sourced-repository';
import { ownDocument, ownedBy, requireWorkspace } from '../shared/tenant';
import { WEBHOOKS } from './webhook.projector';

/**
 * A webhook belongs to one workspace: every webhook use case names it by id, and a missing,
 * deleted or foreign one is `Webhook not found` alike, so an id never confirms another
 * workspace's subscription.
 */

export type LiveWebhook = Extract<WebhookState, { status: 'live' }>;

/** Command side: runs a command on a webhook of the caller's workspace; any other webhook is "not found". */
export function onOwnWebhook(
  repository: EventSourcedRepository,
  context: CommandContext,
  webhookId: string,
  command: WebhookCommand | ((state: LiveWebhook) => WebhookCommand),
) {
  requireWorkspace(context);
  return repository.execute(
    webhookDecider,
    webhookStream(webhookId),
    (state: WebhookState) => {
      if (state.status !== 'live' || !ownedBy(state.workspaceId, context)) throw notFound(WEBHOOK_NOT_FOUND);
      return typeof command === 'function' ? command(state) : command;
    },
    context,
  );
}

/** The current state of a webhook of the caller's workspace, for the operations that only read it. */
export async function loadOwnWebhook(
  repository: EventSourcedRepository,
  context: CommandContext,
  webhookId: string,
): Promise<LiveWebhook> {
  requireWorkspace(context);
  const { state } = await repository.load<WebhookState>(webhookDecider, webhookStream(webhookId));
  if (state.status !== 'live' || !ownedBy(state.workspaceId, context)) throw notFound(WEBHOOK_NOT_FOUND);
  return state;
}

/** Query side: the read model's view of a webhook of the workspace. */
export async function ownWebhookView(
  read: ReadModelStore,
  workspaceId: string,
  webhookId: string,
): Promise<WebhookView> {
  return ownDocument(await read.get<WebhookView>(WEBHOOKS, webhookId), workspaceId, WEBHOOK_NOT_FOUND).doc;
}
