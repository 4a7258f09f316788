import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { StatusLabels, WORKSPACE_NOT_FOUND } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { ownDocument } from '../../shared/tenant';
import { WorkspaceDoc, WORKSPACES } from '../workspace.projector';
import { GetStatusLabelsQuery } from './get-status-labels.query';

@QueryHandler(GetStatusLabelsQuery)
export class GetStatusLabelsHandler implements IQueryHandler<GetStatusLabelsQuery, StatusLabels> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ workspaceId }: GetStatusLabelsQuery): Promise<StatusLabels> {
    const found = ownDocument(
      await this.read.get<WorkspaceDoc>(WORKSPACES, workspaceId),
      workspaceId,
      WORKSPACE_NOT_FOUND,
    );
    return { ...found.doc.status_labels };
  }
}
