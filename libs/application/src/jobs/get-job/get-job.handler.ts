import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JobView } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { visibleJob } from '../job-access';
import { GetJobQuery } from './get-job.query';

@QueryHandler(GetJobQuery)
export class GetJobHandler implements IQueryHandler<GetJobQuery, JobView> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  execute({ workspaceId, projectId, jobId }: GetJobQuery): Promise<JobView> {
    return visibleJob(this.read, workspaceId, projectId, jobId);
  }
}
