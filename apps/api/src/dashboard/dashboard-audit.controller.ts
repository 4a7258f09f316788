import { Readable } from 'node:stream';
import { Controller, Get, Query, Req, Res, UseFilters } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiKeyList,
  AuditEventsPage,
  ExportEventsQuery,
  ListApiKeysQuery,
  ListAuditEventsQuery,
  ListTeamQuery,
  TeamList,
} from '@app/application';
import { Public } from '../http/auth';
import {
  AuditFilterForm,
  auditEventTypes,
  AuditFormErrors,
  auditQuery,
  parseAuditForm,
  resourceLink,
} from './dashboard-audit';
import { DashboardExceptionFilter } from './dashboard-exception.filter';
import { DASHBOARD_SECURITY_HEADERS, NO_STORE } from './dashboard-http';
import { cursorOf, DashboardPages } from './dashboard-pages';
import { actorText, layoutData, SignedInView, timeView } from './dashboard-view-data';

/** Lists read whole for the actor filter: a workspace's members and keys, a page of 50 at a time. */
const MAX_PAGES = 20;

interface ActorOption {
  value: string;
  label: string;
}

const text = (raw: unknown): string => (typeof raw === 'string' ? raw.trim() : '');

/**
 * The dashboard's audit trail (docs/dashboard.md): the workspace's events newest first, filtered by
 * type, actor and time, each linking to its resource's page; the same view exported as NDJSON.
 * Only ever the signed-in member's workspace: the session's workspace is the query's, whatever
 * the request carries.
 */
@ApiExcludeController()
@Public()
@UseFilters(DashboardExceptionFilter)
@Controller('dashboard')
export class DashboardAuditController {
  constructor(
    private readonly pages: DashboardPages,
    private readonly queries: QueryBus,
  ) {}

  @Get('audit')
  async audit(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query() query: Record<string, unknown>) {
    const view = await this.pages.signedIn(request, { permission: 'view_audit', doing: 'see the audit trail' });
    const actors = await this.actorOptions(view.member.workspaceId);
    const form = formOf(query);
    const { filter, errors } = parseAuditForm(form, new Set(actors.map((a) => a.value)));
    if (Object.keys(errors).length > 0) return this.trailPage(reply, view, 400, form, actors, errors, null);
    const page: AuditEventsPage = await this.queries.execute(
      new ListAuditEventsQuery({
        ...filter,
        workspaceId: view.member.workspaceId,
        order: 'desc',
        cursor: cursorOf(query.cursor),
      }),
    );
    await this.trailPage(reply, view, 200, form, actors, {}, page);
  }

  @Get('audit/export')
  async export(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query() query: Record<string, unknown>) {
    const view = await this.pages.signedIn(request, { permission: 'view_audit', doing: 'export the audit trail' });
    const actors = await this.actorOptions(view.member.workspaceId);
    const form = formOf(query);
    const { filter, errors } = parseAuditForm(form, new Set(actors.map((a) => a.value)));
    if (Object.keys(errors).length > 0) return this.trailPage(reply, view, 400, form, actors, errors, null);
    const lines: AsyncIterable<string> = await this.queries.execute(
      new ExportEventsQuery({ workspaceId: view.member.workspaceId }, filter),
    );
    void reply
      .code(200)
      .headers({
        ...DASHBOARD_SECURITY_HEADERS,
        'cache-control': NO_STORE,
        'content-disposition': `attachment; filename="audit-${view.member.workspaceId}.ndjson"`,
      })
      .type('application/x-ndjson')
      .send(Readable.from(lines));
  }

  /** The members and keys of the workspace by name, and the operator: who may appear in the trail. */
  private async actorOptions(workspaceId: string): Promise<ActorOption[]> {
    const members: ActorOption[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < MAX_PAGES; i++) {
      const team: TeamList = await this.queries.execute(new ListTeamQuery(workspaceId, { cursor }));
      for (const m of team.team) {
        const name = [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email || m.id;
        members.push({ value: m.id, label: `${name} (member)` });
      }
      if (!team.cursor) break;
      cursor = team.cursor;
    }
    const keys: ActorOption[] = [];
    cursor = undefined;
    for (let i = 0; i < MAX_PAGES; i++) {
      const list: ApiKeyList = await this.queries.execute(new ListApiKeysQuery(workspaceId, cursor));
      for (const k of list.api_keys) keys.push({ value: k.id, label: `API key “${k.name}”` });
      if (!list.cursor) break;
      cursor = list.cursor;
    }
    return [{ value: 'operator', label: 'Operator' }, ...members, ...keys];
  }

  private async trailPage(
    reply: FastifyReply,
    view: SignedInView,
    status: number,
    form: AuditFilterForm,
    actors: ActorOption[],
    errors: AuditFormErrors,
    page: AuditEventsPage | null,
  ) {
    const memberNames = new Map(
      actors.filter((a) => a.label.endsWith(' (member)')).map((a) => [a.value, a.label.slice(0, -' (member)'.length)]),
    );
    await this.pages.page(reply, status, 'audit', {
      ...layoutData('Audit trail', view, 'audit'),
      form,
      errors,
      types: auditEventTypes(),
      actors,
      entries: (page?.events ?? []).map((e) => ({
        type: e.type,
        at: timeView(e.recorded_at),
        actor: actorText(e.actor, memberNames),
        link: resourceLink(e),
        stream: e.stream,
        requestId: e.request_id,
      })),
      next: page?.cursor ? `/dashboard/audit${auditQuery(form, { cursor: page.cursor })}` : null,
      exportHref: `/dashboard/audit/export${auditQuery(form)}`,
    });
  }
}

function formOf(query: Record<string, unknown>): AuditFilterForm {
  return { type: text(query.type), actor: text(query.actor), from: text(query.from), to: text(query.to) };
}
