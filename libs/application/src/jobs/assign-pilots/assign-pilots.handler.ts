import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  ASSIGNMENT_MESSAGES,
  JOB_ANSWERS,
  JOB_NOT_FOUND,
  JobCommand,
  JobEvent,
  jobOccurrences,
  JobState,
  notFound,
} from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { requireWorkspace } from '../../shared/tenant';
import { MEMBERS, MemberDoc } from '../../workspaces/workspace.projector';
import { decideOnJob, unique } from '../job-access';
import { AssignPilotsCommand, AssignPilotsResult } from './assign-pilots.command';

/**
 * Assigns pilots to every occurrence of a job. The request is all or nothing: an id that is not a
 * pilot of this workspace fails it with 404 before anything is recorded, so `results.failed` is
 * always 0 — it is kept because the documented response has it (docs/api.md, Jobs).
 */
@CommandHandler(AssignPilotsCommand)
export class AssignPilotsHandler implements ICommandHandler<AssignPilotsCommand, AssignPilotsResult> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, projectId, jobId, pilotIds }: AssignPilotsCommand): Promise<AssignPilotsResult> {
    const workspaceId = requireWorkspace(context);
    const requested = unique(pilotIds);
    // Looked up before deciding (a decision cannot wait for I/O), judged after the project and the
    // job: "Job not found" comes before "One or more pilots not found" (docs/api.md, Jobs).
    const pilotsFound = await this.arePilots(workspaceId, requested);
    const now = this.clock.now();
    const outcome = await decideOnJob(this.repository, context, projectId, jobId, (state): JobCommand => {
      if (state.status !== 'live') throw notFound(JOB_NOT_FOUND);
      if (!pilotsFound) throw notFound(ASSIGNMENT_MESSAGES.pilotsNotFound);
      return { type: 'AssignPilots', pilotIds: requested, now };
    });
    const event = outcome.events[0] as Extract<JobEvent, { type: 'job.pilots_assigned' }> | undefined;
    const assigned = event?.data.pilot_ids ?? [];
    const skipped = requested.filter((id) => !assigned.includes(id));
    const perPilot = event?.data.occurrences_per_pilot ?? occurrenceCount(outcome.state, now);
    return {
      message: JOB_ANSWERS.pilotsAssigned,
      results: { successful: assigned.length * perPilot, skipped: skipped.length * perPilot, failed: 0 },
      pilots_assigned: assigned,
      pilots_skipped: skipped,
      occurrences_per_pilot: perPilot,
    };
  }

  /** Pilots are members of this workspace with the role `pilot`; anything else is "not found". */
  private async arePilots(workspaceId: string, pilotIds: string[]): Promise<boolean> {
    const members = await Promise.all(pilotIds.map((id) => this.read.get<MemberDoc>(MEMBERS, id)));
    return members.every((m) => m !== null && m.workspaceId === workspaceId && m.doc.role === 'pilot');
  }
}

function occurrenceCount(state: JobState, now: number): number {
  return state.status === 'live' ? jobOccurrences(state.fields, now).length : 0;
}
