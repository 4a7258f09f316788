import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { GetStreamHistoryQuery, ListWorkspaceEventsQuery, Principal } from '@app/application';
import {
  isPredefinedJobType,
  JOB_NOT_FOUND,
  JOB_TYPE_NOT_FOUND,
  jobStream,
  jobTypeStream,
  PROJECT_NOT_FOUND,
  projectStream,
  validationError,
} from '@app/domain';
import { Caller } from '../http/request-context.decorator';

/**
 * Auditors' read side: each resource's event history (kept after deletion) and the workspace's
 * audit feed. Read scope; another workspace's resource answers like a missing one.
 */
@Controller()
export class HistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get('projects/:projectId/history')
  projectHistory(@Caller() caller: Principal, @Param('projectId') projectId: string, @Query('cursor') cursor?: unknown) {
    return this.queries.execute(
      new GetStreamHistoryQuery(caller.workspaceId, projectStream(projectId), PROJECT_NOT_FOUND, single('cursor', cursor)),
    );
  }

  @Get('projects/:projectId/jobs/:jobId/history')
  jobHistory(
    @Caller() caller: Principal,
    @Param('projectId') projectId: string,
    @Param('jobId') jobId: string,
    @Query('cursor') cursor?: unknown,
  ) {
    return this.queries.execute(
      new GetStreamHistoryQuery(
        caller.workspaceId,
        jobStream(jobId),
        JOB_NOT_FOUND,
        single('cursor', cursor),
        (first) => (first.data as { project_id?: string }).project_id === projectId,
      ),
    );
  }

  /** Predefined job types are part of the catalogue, not of any history: they have no events. */
  @Get('job-types/:jobTypeId/history')
  jobTypeHistory(@Caller() caller: Principal, @Param('jobTypeId') jobTypeId: string, @Query('cursor') cursor?: unknown) {
    if (isPredefinedJobType(jobTypeId)) return { history: [], count: 0, cursor: null };
    return this.queries.execute(
      new GetStreamHistoryQuery(caller.workspaceId, jobTypeStream(jobTypeId), JOB_TYPE_NOT_FOUND, single('cursor', cursor)),
    );
  }

  @Get('webhooks/:webhookId/history')
  webhookHistory(@Caller() caller: Principal, @Param('webhookId') webhookId: string, @Query('cursor') cursor?: unknown) {
    return this.queries.execute(
      new GetStreamHistoryQuery(caller.workspaceId, `webhook-${webhookId}`, 'Webhook not found', single('cursor', cursor)),
    );
  }

  @Get('events')
  events(
    @Caller() caller: Principal,
    @Query('type') type?: unknown,
    @Query('from') from?: unknown,
    @Query('to') to?: unknown,
    @Query('cursor') cursor?: unknown,
  ) {
    const types = single('type', type)
      ?.split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    if (types?.some((t) => !/^[a-z_]+\.[a-z_]+$/.test(t))) throw validationError('type must be a comma-separated list of event types');
    return this.queries.execute(
      new ListWorkspaceEventsQuery(caller.workspaceId, {
        types,
        from: millis('from', from),
        to: millis('to', to),
        cursor: single('cursor', cursor),
      }),
    );
  }
}

function single(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw validationError(`${name} must be given once`);
  return value;
}

function millis(name: string, value: unknown): number | undefined {
  const text = single(name, value);
  if (text === undefined || text === '') return undefined;
  if (!/^\d{1,15}$/.test(text)) throw validationError(`${name} must be a Unix time in milliseconds`);
  return Number(text);
}
