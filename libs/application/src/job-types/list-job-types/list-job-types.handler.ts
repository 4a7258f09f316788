import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JobTypeView, PREDEFINED_JOB_TYPES } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { decodeCursor, PAGE_SIZE, toPage } from '../../shared/pagination';
import { JOB_TYPES } from '../job-type.projector';
import { ListJobTypesQuery, JobTypeList } from './list-job-types.query';

const PREDEFINED: JobTypeView[] = PREDEFINED_JOB_TYPES.map((t) => ({
  id: t.id,
  name: t.name,
  icon: t.icon,
  is_predefined: true,
}));

/**
 * Predefined types first, in catalogue order, then the workspace's custom types in creation order.
 * The catalogue is smaller than a page (a domain test checks it), so the first page holds all of it
 * and the cursor only ever points into the custom types: it is the `seq` of the last one shown,
 * which keeps pages stable while types are added or deleted.
 */
@QueryHandler(ListJobTypesQuery)
export class ListJobTypesHandler implements IQueryHandler<ListJobTypesQuery, JobTypeList> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ workspaceId, cursor }: ListJobTypesQuery): Promise<JobTypeList> {
    const afterSeq = decodeCursor(cursor);
    const predefined = afterSeq === undefined ? PREDEFINED : [];
    const room = PAGE_SIZE - predefined.length;
    const found = await this.read.find<JobTypeView>(JOB_TYPES, { workspaceId, afterSeq, limit: room + 1 });
    const page = toPage(found, room);
    const jobTypes = [...predefined, ...page.items];
    return { job_types: jobTypes, count: jobTypes.length, cursor: page.cursor };
  }
}
