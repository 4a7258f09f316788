import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound, PROJECT_NOT_FOUND, projectDecider, projectStream, projectView, ProjectView } from '@app/domain';
import { stateAsOf } from '../../history/state-as-of';
import { EVENT_STORE, EventStore } from '../../ports/event-store.port';
import { GetProjectAsOfQuery } from './get-project-as-of.query';

@QueryHandler(GetProjectAsOfQuery)
export class GetProjectAsOfHandler implements IQueryHandler<GetProjectAsOfQuery, ProjectView> {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  async execute({ workspaceId, projectId, asOf }: GetProjectAsOfQuery): Promise<ProjectView> {
    const state = await stateAsOf(this.events, projectDecider, projectStream(projectId), asOf);
    if (state.status !== 'live' || state.workspaceId !== workspaceId) throw notFound(PROJECT_NOT_FOUND);
    return projectView(state.id, state.fields);
  }
}
