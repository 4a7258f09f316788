import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JobView } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { decodeCursor, PAGE_SIZE, toPage } from '../../shared/pagination';
import { assertProjectVisible } from '../job-access';
import { JOBS } from '../job.projector';
import { ListJobsQuery, JobList } from './list-jobs.query';

/** Jobs of a project in creation order; the cursor is the `seq` of the last one shown. */
@QueryHandler(ListJobsQuery)
export class ListJobsHandler implements IQueryHandler<ListJobsQuery, JobList> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ workspaceId, projectId, cursor, statuses }: ListJobsQuery): Promise<JobList> {
    const afterSeq = decodeCursor(cursor);
    await assertProjectVisible(this.read, workspaceId, projectId);
    const found = await this.read.find<JobView>(JOBS, {
      workspaceId,
      where: { project_id: projectId, ...(statuses ? { status: { in: statuses } } : {}) },
      afterSeq,
      limit: PAGE_SIZE + 1,
    });
    const page = toPage(found);
    return { jobs: page.items, count: page.items.length, cursor: page.cursor, project_id: projectId };
  }
}
