import { Controller, Get, Query, Req, Res, UseFilters } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ListTeamQuery, TeamList } from '@app/application';
import { Public } from '../http/auth';
import { DashboardExceptionFilter } from './dashboard-exception.filter';
import { cursorOf, DashboardPages } from './dashboard-pages';
import { layoutData, ROLE_LABELS, STATUS_LABELS, timeView } from './dashboard-view-data';

/** The dashboard's team screen (docs/dashboard.md): the workspace's members, for a role that may see them. */
@ApiExcludeController()
@Public()
@UseFilters(DashboardExceptionFilter)
@Controller('dashboard')
export class DashboardTeamController {
  constructor(
    private readonly pages: DashboardPages,
    private readonly queries: QueryBus,
  ) {}

  @Get('team')
  async team(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('cursor') cursor: unknown) {
    const view = await this.pages.signedIn(request, { permission: 'view_team' });
    const list: TeamList = await this.queries.execute(
      new ListTeamQuery(view.member.workspaceId, { cursor: cursorOf(cursor) }),
    );
    await this.pages.page(reply, 200, 'team', {
      ...layoutData('Team', view, 'team'),
      members: list.team.map((m) => ({
        name: [m.first_name, m.last_name].filter(Boolean).join(' ') || '—',
        email: m.email,
        roleLabel: ROLE_LABELS[m.role] ?? m.role,
        title: m.title ?? '—',
        status: m.status,
        statusLabel: STATUS_LABELS[m.status] ?? m.status,
        created: timeView(m.created),
      })),
      next: list.cursor ? `/dashboard/team?cursor=${encodeURIComponent(list.cursor)}` : null,
    });
  }
}
