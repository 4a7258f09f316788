import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { DomainEvent, fold, notFound, PROJECT_NOT_FOUND, projectDecider, projectStream, projectView, ProjectView } from '@app/domain';
import { EVENT_STORE, EventStore } from '../../ports/event-store.port';

/**
 * A project as it was at `asOf` (ms), rebuilt from its events: the fold of every event recorded
 * at or before that instant. 404 when it did not exist then (not yet created, or already deleted).
 */
export class GetProjectAsOfQuery extends Query<ProjectView> {
  constructor(
    readonly workspaceId: string,
    readonly projectId: string,
    readonly asOf: number,
  ) {
    super();
  }
}

@QueryHandler(GetProjectAsOfQuery)
export class GetProjectAsOfHandler implements IQueryHandler<GetProjectAsOfQuery, ProjectView> {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  async execute({ workspaceId, projectId, asOf }: GetProjectAsOfQuery): Promise<ProjectView> {
    const history = await this.events.readStream(projectStream(projectId));
    const until = history.filter((e) => e.metadata.recordedAt <= asOf) as unknown as DomainEvent[];
    const state = fold(projectDecider, until as Parameters<typeof projectDecider.evolve>[1][]);
    if (state.status !== 'live' || state.workspaceId !== workspaceId) throw notFound(PROJECT_NOT_FOUND);
    return projectView(state.id, state.fields);
  }
}
