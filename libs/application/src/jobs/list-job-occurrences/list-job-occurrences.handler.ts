import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { jobOccurrences } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { decodeCursor, encodeCursor, PAGE_SIZE } from '../../shared/pagination';
import { visibleJob } from '../job-access';
import { assignedPilots } from './assigned-pilots';
import { ListJobOccurrencesQuery, OccurrenceList } from './list-job-occurrences.query';

const MS_PER_DAY = 86_400_000;
/** Days since 1970-01-01 of a `YYYY-MM-DD` date: the occurrence cursor (dates are unique per job). */
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / MS_PER_DAY;

/**
 * Occurrences are derived, not stored: the job's schedule expanded on today's date (the rolling
 * horizon of open-ended jobs moves with it), each carrying the job's assigned pilots. Pages of 50
 * in date order; the cursor is the last date shown, so a page boundary stays put when the
 * schedule changes or the horizon rolls on.
 */
@QueryHandler(ListJobOccurrencesQuery)
export class ListJobOccurrencesHandler implements IQueryHandler<ListJobOccurrencesQuery, OccurrenceList> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, projectId, jobId, cursor }: ListJobOccurrencesQuery): Promise<OccurrenceList> {
    const afterDay = decodeCursor(cursor);
    const job = await visibleJob(this.read, workspaceId, projectId, jobId);
    const all = jobOccurrences(job, this.clock.now());
    const remaining = afterDay === undefined ? all : all.filter((o) => dayNumber(o.date) > afterDay);
    const page = remaining.slice(0, PAGE_SIZE);
    const pilots = page.length > 0 ? await assignedPilots(this.read, workspaceId, jobId) : [];
    const more = remaining.length > PAGE_SIZE;
    return {
      occurrences: page.map((o) => ({ date: o.date, flights: o.flights, assigned_pilot_ids: [...pilots] })),
      count: page.length,
      cursor: more ? encodeCursor(dayNumber(page[page.length - 1].date)) : null,
      job_id: jobId,
      project_id: projectId,
    };
  }
}
