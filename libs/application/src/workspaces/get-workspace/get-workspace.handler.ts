import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound, WORKSPACE_NOT_FOUND } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { workspaceItem } from '../list-workspaces/list-workspaces.handler';
import { WorkspaceListItem } from '../list-workspaces/list-workspaces.query';
import { WORKSPACES, WorkspaceDoc } from '../workspace.projector';
import { GetWorkspaceQuery } from './get-workspace.query';

@QueryHandler(GetWorkspaceQuery)
export class GetWorkspaceHandler implements IQueryHandler<GetWorkspaceQuery, WorkspaceListItem> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ workspaceId }: GetWorkspaceQuery): Promise<WorkspaceListItem> {
    const found = await this.read.get<WorkspaceDoc>(WORKSPACES, workspaceId);
    if (!found) throw notFound(WORKSPACE_NOT_FOUND);
    return workspaceItem(this.read, found.doc);
  }
}
