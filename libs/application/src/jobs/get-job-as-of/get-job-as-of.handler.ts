import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JOB_NOT_FOUND, jobDecider, jobStream, JobView, jobView, notFound } from '@app/domain';
import { stateAsOf } from '../../history/state-as-of';
import { EVENT_STORE, EventStore } from '../../ports/event-store.port';
import { GetJobAsOfQuery } from './get-job-as-of.query';

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
