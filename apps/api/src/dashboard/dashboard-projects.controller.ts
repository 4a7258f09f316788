import { Controller, Get, Param, Query, Req, Res, UseFilters } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  GetJobQuery,
  GetProjectQuery,
  GetStatusLabelsQuery,
  GetStreamHistoryQuery,
  HistoryPage,
  JobList,
  ListJobOccurrencesQuery,
  ListJobsQuery,
  ListProjectsQuery,
  OccurrenceList,
  ProjectAtRevision,
  ProjectList,
} from '@app/application';
import {
  DomainError,
  JOB_NOT_FOUND,
  jobStream,
  JobView,
  PROJECT_NOT_FOUND,
  projectStream,
  ProjectView,
  StatusLabels,
} from '@app/domain';
import { Public } from '../http/auth';
import { DashboardExceptionFilter } from './dashboard-exception.filter';
import { cursorOf, DashboardPages } from './dashboard-pages';
import {
  createdByText,
  membersNamed,
  pageUrl,
  searchOf,
  statusFilterOf,
  statusOptions,
  statusView,
  timelineView,
} from './dashboard-projects';
import { layoutData, SignedInView, timeView } from './dashboard-view-data';

const PROJECTS_PATH = '/dashboard/projects';
const projectPath = (projectId: string) => `${PROJECTS_PATH}/${encodeURIComponent(projectId)}`;

/**
 * The dashboard's projects and jobs (docs/dashboard.md), read only: the projects' list with its
 * status filter and name search, a project with its jobs and timeline, a job with its occurrences,
 * assigned pilots and timeline. Every read goes through the queries the API's GETs use, with the
 * session's workspace: another workspace's project or job is "Not found", as a missing one.
 */
@ApiExcludeController()
@Public()
@UseFilters(DashboardExceptionFilter)
@Controller('dashboard/projects')
export class DashboardProjectsController {
  constructor(
    private readonly pages: DashboardPages,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  async projects(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Query('status') rawStatus: unknown,
    @Query('q') rawSearch: unknown,
    @Query('archived') rawArchived: unknown,
    @Query('cursor') cursor: unknown,
  ) {
    const view = await this.signedIn(request);
    const status = statusFilterOf(rawStatus);
    const search = searchOf(rawSearch);
    const archived = rawArchived === 'true';
    const [labels, list] = await Promise.all([
      this.labelsOf(view),
      this.queries.execute<ListProjectsQuery, ProjectList>(
        new ListProjectsQuery(view.member.workspaceId, {
          statuses: status ? [status] : undefined,
          archived,
          nameContains: search,
          cursor: cursorOf(cursor),
        }),
      ),
    ]);
    const filters = { status, q: search, archived: archived ? 'true' : undefined };
    await this.pages.page(reply, 200, 'projects', {
      ...layoutData('Projects', view, 'projects'),
      filter: { status: status ?? '', q: search ?? '', archived },
      statuses: statusOptions(labels, status),
      filtered: Boolean(status || search),
      projects: list.projects.map((p) => ({
        id: p.id,
        name: p.name,
        status: statusView(labels, p.status),
        startDate: p.start_date,
        endDate: p.end_date ?? '—',
        updated: timeView(p.updated),
      })),
      next: list.cursor ? pageUrl(PROJECTS_PATH, { ...filters, cursor: list.cursor }) : null,
    });
  }

  @Get(':projectId')
  async project(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('projectId') projectId: string,
    @Query('status') rawStatus: unknown,
    @Query('jobs_cursor') jobsCursor: unknown,
    @Query('history_cursor') historyCursor: unknown,
  ) {
    const view = await this.signedIn(request);
    const workspaceId = view.member.workspaceId;
    const status = statusFilterOf(rawStatus);
    // The history first: it says whether the project is the workspace's (a deleted one keeps it).
    const history = await this.queries.execute<GetStreamHistoryQuery, HistoryPage>(
      new GetStreamHistoryQuery(workspaceId, projectStream(projectId), PROJECT_NOT_FOUND, cursorOf(historyCursor)),
    );
    const [labels, current] = await Promise.all([
      this.labelsOf(view),
      this.present<ProjectAtRevision>(new GetProjectQuery(workspaceId, projectId)),
    ]);
    const project: ProjectView | null = current?.project ?? null;
    const jobs = project
      ? await this.queries.execute<ListJobsQuery, JobList>(
          new ListJobsQuery(workspaceId, projectId, cursorOf(jobsCursor), status ? [status] : undefined),
        )
      : null;
    const names = await this.pages.memberNames(workspaceId, [
      ...membersNamed(history.history),
      ...(project?.created_by ? [project.created_by.id] : []),
    ]);
    const path = projectPath(projectId);
    await this.pages.page(reply, 200, 'project', {
      ...layoutData(project?.name ?? 'A deleted project', view, 'projects'),
      id: projectId,
      path,
      project: project && {
        name: project.name,
        description: project.description,
        status: statusView(labels, project.status),
        startDate: project.start_date,
        endDate: project.end_date ?? '—',
        externalId: project.external_id ?? '—',
        laancNumber: project.laanc_number ?? '—',
        archived: project.archived,
        createdBy: createdByText(project.created_by, names),
        created: timeView(project.created),
        updated: timeView(project.updated),
      },
      filter: { status: status ?? '' },
      statuses: statusOptions(labels, status),
      jobs: (jobs?.jobs ?? []).map((j) => ({
        id: j.id,
        name: j.name,
        type: j.type,
        status: statusView(labels, j.status),
        priority: j.priority,
        startDate: j.start_date,
      })),
      jobsNext: jobs?.cursor ? pageUrl(path, { status, jobs_cursor: jobs.cursor }) + '#jobs-title' : null,
      ...timelineView(history, labels, names, path, { status }),
    });
  }

  @Get(':projectId/jobs/:jobId')
  async job(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('projectId') projectId: string,
    @Param('jobId') jobId: string,
    @Query('occurrences_cursor') occurrencesCursor: unknown,
    @Query('history_cursor') historyCursor: unknown,
  ) {
    const view = await this.signedIn(request);
    const workspaceId = view.member.workspaceId;
    const history = await this.queries.execute<GetStreamHistoryQuery, HistoryPage>(
      new GetStreamHistoryQuery(
        workspaceId,
        jobStream(jobId),
        JOB_NOT_FOUND,
        cursorOf(historyCursor),
        (first) => (first.data as { project_id?: string }).project_id === projectId,
      ),
    );
    const [labels, job, project] = await Promise.all([
      this.labelsOf(view),
      this.present<JobView>(new GetJobQuery(workspaceId, projectId, jobId)),
      this.present<ProjectAtRevision>(new GetProjectQuery(workspaceId, projectId)),
    ]);
    const occurrences = job
      ? await this.queries.execute<ListJobOccurrencesQuery, OccurrenceList>(
          new ListJobOccurrencesQuery(workspaceId, projectId, jobId, cursorOf(occurrencesCursor)),
        )
      : null;
    const pilotIds = occurrences?.occurrences[0]?.assigned_pilot_ids ?? [];
    const names = await this.pages.memberNames(workspaceId, [...membersNamed(history.history), ...pilotIds]);
    const path = `${projectPath(projectId)}/jobs/${encodeURIComponent(jobId)}`;
    await this.pages.page(reply, 200, 'job', {
      ...layoutData(job?.name ?? 'A deleted job', view, 'projects'),
      id: jobId,
      project: { path: projectPath(projectId), name: project?.project.name ?? 'Its project' },
      job: job && {
        name: job.name,
        description: job.description ?? '—',
        type: job.type,
        status: statusView(labels, job.status),
        priority: job.priority,
        pattern: job.job_pattern,
        startDate: job.start_date,
        endDate: job.end_date ?? '—',
        location: job.latitude === null || job.longitude === null ? '—' : `${job.latitude}, ${job.longitude}`,
        captureTypes: job.capture_types?.join(', ') || '—',
        externalId: job.external_id ?? '—',
        created: timeView(job.created),
        updated: timeView(job.updated),
      },
      pilots: pilotIds.map((id) => ({ id, name: names.get(id) ?? id })),
      occurrences: (occurrences?.occurrences ?? []).map((o) => ({ date: o.date, flights: o.flights })),
      occurrencesNext: occurrences?.cursor
        ? pageUrl(path, { occurrences_cursor: occurrences.cursor }) + '#occurrences-title'
        : null,
      ...timelineView(history, labels, names, path),
    });
  }

  /** Each page here is for the members who may view projects; the member's workspace scopes every read. */
  private signedIn(request: FastifyRequest): Promise<SignedInView> {
    return this.pages.signedIn(request, { permission: 'view_projects' });
  }

  private labelsOf(view: SignedInView): Promise<StatusLabels> {
    return this.queries.execute(new GetStatusLabelsQuery(view.member.workspaceId));
  }

  /** What a query answers, or null for a resource that is no longer there (deleted: its history stays). */
  private async present<T>(query: GetProjectQuery | GetJobQuery): Promise<T | null> {
    try {
      return await this.queries.execute<typeof query, T>(query);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') return null;
      throw error;
    }
  }
}
