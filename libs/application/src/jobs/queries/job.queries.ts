import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { JOB_NOT_FOUND, jobOccurrences, JobView, MAX_PILOTS_PER_REQUEST, notFound } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { READ_MODEL_STORE, ReadModelStore, StoredDocument } from '../../ports/read-model.port';
import { decodeCursor, encodeCursor, PAGE_SIZE, toPage } from '../../shared/pagination';
import { assertProjectVisible } from '../job-access';
import { JOB_ASSIGNMENTS, JobAssignmentDoc, JOBS } from '../job.projector';

export class GetJobQuery extends Query<JobView> {
  constructor(
    readonly workspaceId: string,
    readonly projectId: string,
    readonly jobId: string,
  ) {
    super();
  }
}

export interface JobList {
  jobs: JobView[];
  count: number;
  cursor: string | null;
  project_id: string;
}

export class ListJobsQuery extends Query<JobList> {
  constructor(
    readonly workspaceId: string,
    readonly projectId: string,
    readonly cursor?: string,
  ) {
    super();
  }
}

/** One occurrence of a job as GET .../occurrences shows it (the API reference leaves the record unshown). */
export interface OccurrenceItem {
  date: string;
  flights: number;
  /** Every pilot assigned to the job: assignments apply to all of its occurrences. */
  assigned_pilot_ids: string[];
}

export interface OccurrenceList {
  occurrences: OccurrenceItem[];
  count: number;
  cursor: string | null;
  job_id: string;
  project_id: string;
}

export class ListJobOccurrencesQuery extends Query<OccurrenceList> {
  constructor(
    readonly workspaceId: string,
    readonly projectId: string,
    readonly jobId: string,
    readonly cursor?: string,
  ) {
    super();
  }
}

async function visibleJob(read: ReadModelStore, workspaceId: string, projectId: string, jobId: string): Promise<JobView> {
  await assertProjectVisible(read, workspaceId, projectId);
  const found = await read.get<JobView>(JOBS, jobId);
  if (!found || found.workspaceId !== workspaceId || found.doc.project_id !== projectId) throw notFound(JOB_NOT_FOUND);
  return found.doc;
}

@QueryHandler(GetJobQuery)
export class GetJobHandler implements IQueryHandler<GetJobQuery, JobView> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  execute({ workspaceId, projectId, jobId }: GetJobQuery): Promise<JobView> {
    return visibleJob(this.read, workspaceId, projectId, jobId);
  }
}

/** Jobs of a project in creation order; the cursor is the `seq` of the last one shown. */
@QueryHandler(ListJobsQuery)
export class ListJobsHandler implements IQueryHandler<ListJobsQuery, JobList> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ workspaceId, projectId, cursor }: ListJobsQuery): Promise<JobList> {
    const afterSeq = decodeCursor(cursor);
    await assertProjectVisible(this.read, workspaceId, projectId);
    const found = await this.read.find<JobView>(JOBS, {
      workspaceId,
      where: { project_id: projectId },
      afterSeq,
      limit: PAGE_SIZE + 1,
    });
    const page = toPage(found);
    return { jobs: page.items, count: page.items.length, cursor: page.cursor, project_id: projectId };
  }
}

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

const ASSIGNMENT_BATCH = 5 * MAX_PILOTS_PER_REQUEST;

/**
 * The job's pilots in the order they were assigned. Pilots assigned by one request share a `seq`
 * (the position of their event), so paging by `seq` must not cut such a group in two: a full
 * batch gives back its trailing group, which the next batch reads whole. A group holds at most
 * MAX_PILOTS_PER_REQUEST ids, fewer than a batch, so every batch makes progress.
 */
export async function assignedPilots(read: ReadModelStore, workspaceId: string, jobId: string): Promise<string[]> {
  const pilots: string[] = [];
  let afterSeq: number | undefined;
  for (;;) {
    const batch: StoredDocument<JobAssignmentDoc>[] = await read.find<JobAssignmentDoc>(JOB_ASSIGNMENTS, {
      workspaceId,
      where: { job_id: jobId },
      afterSeq,
      limit: ASSIGNMENT_BATCH,
    });
    const full = batch.length === ASSIGNMENT_BATCH;
    const lastSeq = batch.length > 0 ? batch[batch.length - 1].seq : undefined;
    const whole = full ? batch.filter((d) => d.seq !== lastSeq) : batch;
    if (full && whole.length === 0) throw new Error(`More than ${ASSIGNMENT_BATCH} assignments share one event`);
    whole.sort((a, b) => a.seq - b.seq || a.doc.index - b.doc.index);
    pilots.push(...whole.map((d) => d.doc.pilot_id));
    if (!full) return pilots;
    afterSeq = whole[whole.length - 1].seq;
  }
}

