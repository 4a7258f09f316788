import { Query } from '@nestjs/cqrs';
import { StatusLabels } from '@app/domain';

/** The statuses a workspace renamed for its dashboard, with their labels (the rest keep the defaults). */
export class GetStatusLabelsQuery extends Query<StatusLabels> {
  constructor(readonly workspaceId: string) {
    super();
  }
}
