import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JOB_ANSWERS, JobCommand, JobEvent } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { requireWorkspace } from '../../shared/tenant';
import { decideOnJob, unique } from '../job-access';
import { UnassignPilotsCommand, UnassignPilotsResult } from './unassign-pilots.command';

/**
 * Removes pilots from every occurrence of a job. Pilots are not looked up: an assignment can be
 * removed whatever became of the member. Ids without an assignment are left out of
 * `pilots_removed`; when none of them has one, the answer is 404 (docs/api.md, Jobs).
 */
@CommandHandler(UnassignPilotsCommand)
export class UnassignPilotsHandler implements ICommandHandler<UnassignPilotsCommand, UnassignPilotsResult> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, projectId, jobId, pilotIds }: UnassignPilotsCommand): Promise<UnassignPilotsResult> {
    requireWorkspace(context);
    const now = this.clock.now();
    const outcome = await decideOnJob(this.repository, context, projectId, jobId, (): JobCommand => ({
      type: 'UnassignPilots',
      pilotIds: unique(pilotIds),
      now,
    }));
    const event = outcome.events[0] as Extract<JobEvent, { type: 'job.pilots_unassigned' }>;
    return {
      message: JOB_ANSWERS.pilotsUnassigned,
      pilots_removed: event.data.pilot_ids,
      // One record per pilot and occurrence went (docs/api.md, Jobs); the event keeps the two factors.
      assignments_removed: event.data.pilot_ids.length * event.data.occurrences_per_pilot,
    };
  }
}
