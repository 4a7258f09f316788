import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  createdByOf,
  ProjectCommand,
  projectDecider,
  projectStream,
  workspaceDecider,
  workspaceStream,
} from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { ID_GENERATOR, IdGenerator } from '../../ports/id-generator.port';
import { newResourceId } from '../../shared/command-context';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { requireWorkspace } from '../../shared/tenant';
import { CreateProjectCommand } from './create-project.command';

/**
 * Creates a project and takes one of its workspace's slots in one write: `project.created` on the
 * project's stream (expected: no stream) and `workspace.project_slot_reserved` on the workspace's,
 * atomically on the embedded store. A failure anywhere leaves neither; a project that already
 * exists (a retry) takes no second slot. On EventStoreDB the reservation is appended first, so a
 * write can stop after it: the retry (the same project id, from the Idempotency-Key) finds the
 * slot held by that project already and takes no other; one whose project never appeared is
 * released by the slot reconciler (docs/decisions.md).
 *
 * Creates in one workspace are queued on its stream and decided together: one append for all.
 */
@CommandHandler(CreateProjectCommand)
export class CreateProjectHandler implements ICommandHandler<CreateProjectCommand, { id: string }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ context, input }: CreateProjectCommand) {
    const workspaceId = requireWorkspace(context);
    // A retried request with the same Idempotency-Key names the same project: it cannot take a
    // second slot even when its first run died after writing and before its answer was stored.
    const id = newResourceId(this.ids, 'prj', context);
    const create: ProjectCommand = {
      type: 'CreateProject',
      id,
      workspaceId,
      name: input.name,
      description: input.description,
      status: input.status,
      otherStatusReason: input.other_status_reason,
      startDate: input.start_date,
      endDate: input.end_date,
      externalId: input.external_id,
      createdBy: createdByOf(context.actor),
      now: this.clock.now(),
    };
    const workspace = workspaceStream(workspaceId);
    await this.repository.transact(workspace, context, async (unit) => {
      // Without an Idempotency-Key the id is random: the stream is new, and need not be read.
      const project = await unit.decide(projectDecider, projectStream(id), create, {
        order: 'last',
        newStream: context.idempotencyKey === undefined,
      });
      if (project.events.length > 0) {
        await unit.decide(
          workspaceDecider,
          workspace,
          { type: 'ReserveProjectSlot', projectId: id },
          { order: 'first' },
        );
      }
    });
    return { id };
  }
}
