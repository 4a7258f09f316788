import { Readable } from 'node:stream';
import { Controller, Get, Param, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AuditEntry,
  AuditEventsPage,
  ExportEventsQuery,
  GetResourceTimelineQuery,
  ListAuditEventsQuery,
  ListRequestEventsQuery,
  ResourceTimeline,
  TIMELINE_REVISION,
} from '@app/application';
import { validationError } from '@app/domain';
import { Public } from '../http/auth';
import { DASHBOARD_SECURITY_HEADERS, NO_STORE } from '../dashboard/dashboard-http';
import { auditEventTypes } from '../dashboard/dashboard-audit';
import { cursorOf } from '../dashboard/dashboard-pages';
import { timeView } from '../dashboard/dashboard-view-data';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { ConsoleApiKeyRefusal, consoleLayout, ConsolePages, ConsoleView } from './console-pages';
import {
  actorView,
  afterOf,
  consoleUrl,
  diffView,
  entryView,
  exportOf,
  FEED_MESSAGES,
  FeedErrors,
  FeedForm,
  feedFormOf,
  feedQuery,
  parseFeedForm,
  requestHref,
  stateLines,
  streamOf,
  timelineHref,
} from './console-audit';

const REQUEST_ID = /^[\x21-\x7e]{1,200}$/;
const KIND_TEXT: Record<ResourceTimeline['kind'], string> = {
  project: 'Project',
  job: 'Job',
  job_type: 'Job type',
  webhook: 'Webhook',
  workspace: 'Workspace',
};

/**
 * The console's audit views (docs/console.md), for auditors and operators alike, all read-only:
 * the event feed across workspaces, one request's events across the streams it touched, a
 * resource's timeline with each revision's changes and its state as of any revision, and the
 * NDJSON export of any of these views, resumable after the last position received. Everything
 * is read through the application's queries, as the operator audit routes read it.
 */
@ApiExcludeController()
@Public()
@UseFilters(ConsoleExceptionFilter)
@UseGuards(ConsoleApiKeyRefusal)
@Controller('console')
export class ConsoleAuditController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly queries: QueryBus,
  ) {}

  @Get('events')
  async feed(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query() query: Record<string, unknown>) {
    const { view } = await this.pages.signedIn(request);
    const { form, errors: repeated } = feedFormOf(query);
    const { filter, errors } = parseFeedForm(form, repeated);
    if (Object.keys(errors).length > 0) return this.feedPage(reply, view, 400, form, errors, null);
    const page: AuditEventsPage = await this.queries.execute(
      new ListAuditEventsQuery(feedQuery(filter, cursorOf(query.cursor))),
    );
    await this.feedPage(reply, view, 200, form, {}, page);
  }

  /** NDJSON of the feed's filters, of one stream (`stream`), resumable with `after` (docs/console.md). */
  @Get('events/export')
  async export(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query() query: Record<string, unknown>) {
    const { view } = await this.pages.signedIn(request);
    const { form, errors: repeated } = feedFormOf(query);
    const { filter, errors } = parseFeedForm(form, repeated);
    const stream = streamOf(query.stream);
    const after = afterOf(query.after);
    if (Object.keys(errors).length > 0) return this.feedPage(reply, view, 400, form, errors, null);
    if (stream.error) throw validationError(stream.error);
    if (after.error) throw validationError(after.error);
    const { source, filter: exportFilter } = exportOf(filter, stream.stream, after.after);
    const lines: AsyncIterable<string> = await this.queries.execute(new ExportEventsQuery(source, exportFilter));
    const scope = stream.stream ?? filter.workspaceId ?? 'all-workspaces';
    void reply
      .code(200)
      .headers({
        ...DASHBOARD_SECURITY_HEADERS,
        'cache-control': NO_STORE,
        'content-disposition': `attachment; filename="events-${scope}${after.after === undefined ? '' : `-after-${after.after}`}.ndjson"`,
      })
      .type('application/x-ndjson')
      .send(Readable.from(lines));
  }

  @Get('requests/:requestId')
  async request(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('requestId') requestId: string) {
    const { view } = await this.pages.signedIn(request);
    if (!REQUEST_ID.test(requestId)) throw validationError(FEED_MESSAGES.request_id);
    const found: { events: AuditEntry[]; count: number } = await this.queries.execute(
      new ListRequestEventsQuery(requestId),
    );
    const streams = new Map<string, ReturnType<typeof entryView>[]>();
    for (const entry of found.events) {
      const entries = streams.get(entry.stream) ?? [];
      entries.push(entryView(entry));
      streams.set(entry.stream, entries);
    }
    await this.pages.page(reply, 200, 'request', {
      ...consoleLayout(`Request ${requestId}`, view, 'events'),
      requestId,
      count: found.count,
      workspaces: [...new Set(found.events.map((e) => e.workspace_id))],
      streams: [...streams].map(([stream, entries]) => ({
        stream,
        timelineHref: timelineHref(stream),
        entries,
      })),
      exportHref: consoleUrl('/console/events/export', { request_id: requestId }),
    });
  }

  @Get('streams/:stream')
  async timeline(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('stream') stream: string,
    @Query('revision') rawRevision?: unknown,
    @Query('cursor') cursor?: unknown,
  ) {
    const { view } = await this.pages.signedIn(request);
    const revision = revisionOf(rawRevision);
    const timeline: ResourceTimeline = await this.queries.execute(
      new GetResourceTimelineQuery(stream, { revision, cursor: cursorOf(cursor) }),
    );
    const path = `/console/streams/${encodeURIComponent(stream)}`;
    const title = `${KIND_TEXT[timeline.kind]} ${timeline.id}`;
    await this.pages.page(reply, 200, 'timeline', {
      ...consoleLayout(title, view, 'events'),
      heading: title,
      kind: KIND_TEXT[timeline.kind],
      stream,
      path,
      cursor: cursorOf(cursor) ?? '',
      workspace: timeline.workspace_id,
      lastRevision: timeline.last_revision,
      selected: {
        revision: timeline.selected.revision,
        at: timeView(timeline.selected.recorded_at),
        asOf: timeline.selected.recorded_at,
        latest: timeline.selected.revision === timeline.last_revision,
        lines: stateLines(timeline.selected.state),
      },
      revisions: timeline.revisions.map((r) => ({
        revision: r.revision,
        type: r.type,
        at: timeView(r.recorded_at),
        actor: actorView(r.actor),
        requestId: r.request_id,
        requestHref: r.request_id ? requestHref(r.request_id) : null,
        asOfHref: consoleUrl(path, { revision: r.revision, cursor: cursorOf(cursor) }) + '#state-title',
        selected: r.revision === timeline.selected.revision,
        diff: diffView(r.diff),
      })),
      next: timeline.cursor
        ? consoleUrl(path, { revision: timeline.selected.revision, cursor: timeline.cursor }) + '#revisions-title'
        : null,
      exportHref: consoleUrl('/console/events/export', { stream }),
    });
  }

  private async feedPage(
    reply: FastifyReply,
    view: ConsoleView,
    status: number,
    form: FeedForm,
    errors: FeedErrors,
    page: AuditEventsPage | null,
  ) {
    await this.pages.page(reply, status, 'events', {
      ...consoleLayout('Events', view, 'events'),
      form,
      errors,
      types: auditEventTypes(),
      entries: (page?.events ?? []).map(entryView),
      filterHref: (name: string, value: string) => consoleUrl('/console/events', { ...form, [name]: value }),
      next: page?.cursor ? consoleUrl('/console/events', { ...form, cursor: page.cursor }) : null,
      exportHref: consoleUrl('/console/events/export', { ...form }),
    });
  }
}

function revisionOf(raw: unknown): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw)) throw validationError(TIMELINE_REVISION);
  return Number(raw);
}
