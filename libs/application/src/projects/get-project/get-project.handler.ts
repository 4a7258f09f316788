import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { PROJECT_NOT_FOUND, ProjectView } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { ownDocument } from '../../shared/tenant';
import { PROJECTS } from '../project.projector';
import { GetProjectQuery, ProjectAtRevision } from './get-project.query';

/**
 * Document and revision come from one read, so the ETag always describes the body it comes with.
 * Another workspace's project answers exactly like a missing one.
 */
@QueryHandler(GetProjectQuery)
export class GetProjectHandler implements IQueryHandler<GetProjectQuery, ProjectAtRevision> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ workspaceId, projectId }: GetProjectQuery): Promise<ProjectAtRevision> {
    const found = ownDocument(await this.read.get<ProjectView>(PROJECTS, projectId), workspaceId, PROJECT_NOT_FOUND);
    return { project: found.doc, revision: found.version };
  }
}
