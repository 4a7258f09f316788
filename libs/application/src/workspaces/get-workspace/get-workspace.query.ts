import { Query } from '@nestjs/cqrs';
import { WorkspaceListItem } from '../list-workspaces/list-workspaces.query';

/** One workspace as listed; 404 when there is none with this id. */
export class GetWorkspaceQuery extends Query<WorkspaceListItem> {
  constructor(readonly workspaceId: string) {
    super();
  }
}
