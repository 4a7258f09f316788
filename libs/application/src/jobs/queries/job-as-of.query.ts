import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { JOB_NOT_FOUND, jobDecider, jobStream, jobView, notFound } from '@app/domain';
import { stateAsOf } from '../../history/state-as-of';
import { EVENT_STORE, EventStore } from '../../ports/event-store.port';

type JobView = ReturnType<typeof jobView>;

/** A job as it was at `asOf` (ms), rebuilt from its events; 404 when it did not exist then. */
export class GetJobAsOfQuery extends Query<JobView> {
  constructor(
    readonly workspaceId: string,
    readonly projectId: string,
    readonly jobId: string,
    readonly asOf: number,
  ) {
    super();
  }
}

@QueryHandler(GetJobAsOfQuery)
export class GetJobAsOfHandler implements IQueryHandler<GetJobAsOfQuery, JobView> {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  async execute({ workspaceId, projectId, jobId, asOf }: GetJobAsOfQuery): Promise<JobView> {
    const state = await stateAsOf(this.events, jobDecider, jobStream(jobId), asOf);
    if (state.status !== 'live' || state.workspaceId !== workspaceId || state.projectId !== projectId) {
      throw notFound(JOB_NOT_FOUND);
    }
    return jobView(state.id, state.projectId, state.fields);
  }
}
