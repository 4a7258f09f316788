import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { workspaceDecider, workspaceStream } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { ID_GENERATOR, IdGenerator } from '../../ports/id-generator.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { generateApiKey } from '../api-key-authenticator';
import { CreateApiKeyCommand } from './create-api-key.command';

@CommandHandler(CreateApiKeyCommand)
export class CreateApiKeyHandler implements ICommandHandler<CreateApiKeyCommand, { id: string; key: string }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /** The key leaves the service only in this return value; the events hold its hash. */
  async execute({ context, workspaceId, input }: CreateApiKeyCommand) {
    const id = this.ids.next('key');
    const { key, hash } = generateApiKey();
    await this.repository.execute(
      workspaceDecider,
      workspaceStream(workspaceId),
      { type: 'CreateApiKey', keyId: id, name: input.name, scope: input.scope, keyHash: hash, now: this.clock.now() },
      { ...context, workspaceId },
    );
    return { id, key };
  }
}
