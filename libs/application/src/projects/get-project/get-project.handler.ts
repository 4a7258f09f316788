import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { PROJECT_NOT_FOUND } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore, StoredJson } from '../../ports/read-model.port';
import { ownDocument } from '../../shared/tenant';
import { PROJECTS } from '../project.projector';
import { GetProjectQuery } from './get-project.query';

/**
 * Document and revision come from one read, so the ETag always describes the body it comes with.
 * Another workspace's project answers exactly like a missing one.
 */
@QueryHandler(GetProjectQuery)
export class GetProjectHandler implements IQueryHandler<GetProjectQuery, StoredJson> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ workspaceId, projectId }: GetProjectQuery): Promise<StoredJson> {
    return ownDocument(await this.read.getJson(PROJECTS, projectId), workspaceId, PROJECT_NOT_FOUND);
  }
}
