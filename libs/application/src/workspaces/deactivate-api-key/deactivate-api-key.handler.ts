import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { API_KEY_NOT_FOUND, notFound, workspaceDecider, workspaceStream } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { API_KEYS } from '../workspace.projector';
import { DeactivateApiKeyCommand } from './deactivate-api-key.command';

@CommandHandler(DeactivateApiKeyCommand)
export class DeactivateApiKeyHandler implements ICommandHandler<DeactivateApiKeyCommand> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, keyId }: DeactivateApiKeyCommand) {
    // The key id alone names no stream: its workspace comes from the read model. A caller confined
    // to a workspace (a dashboard member) finds another workspace's key exactly as a missing one.
    const key = await this.read.get(API_KEYS, keyId);
    if (!key?.workspaceId) throw notFound(API_KEY_NOT_FOUND);
    if (context.workspaceId !== null && context.workspaceId !== key.workspaceId) throw notFound(API_KEY_NOT_FOUND);
    await this.repository.execute(
      workspaceDecider,
      workspaceStream(key.workspaceId),
      { type: 'DeactivateApiKey', keyId, now: this.clock.now() },
      { ...context, workspaceId: key.workspaceId },
    );
  }
}
