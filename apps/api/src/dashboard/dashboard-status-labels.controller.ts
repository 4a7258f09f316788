import { Controller, Get, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ChangeStatusLabelsCommand, GetStatusLabelsQuery, mayDo } from '@app/application';
import { DEFAULT_STATUS_LABELS, STATUS_LABEL_LIMITS, STATUS_VALUES, StatusLabels, statusLabelInput } from '@app/domain';
import { Public } from '../http/auth';
import { DashboardExceptionFilter } from './dashboard-exception.filter';
import { seeOther } from './dashboard-http';
import { DashboardPages, field } from './dashboard-pages';
import { layoutData, SignedInView } from './dashboard-view-data';

export const STATUS_LABELS_PATH = '/dashboard/settings/statuses';

/** The form field of a status's label. */
export const labelField = (status: string) => `label_${status}`;

/**
 * The dashboard's status display names (docs/dashboard.md): a label per status, shown wherever the
 * dashboard shows a status, changed by a root or a project manager; the API keeps the values.
 */
@ApiExcludeController()
@Public()
@UseFilters(DashboardExceptionFilter)
@Controller('dashboard/settings/statuses')
export class DashboardStatusLabelsController {
  constructor(
    private readonly pages: DashboardPages,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  async statusLabels(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('notice') notice: unknown) {
    const view = await this.pages.signedIn(request, { permission: 'view_status_labels' });
    const labels = await this.labelsOf(view);
    const typed = Object.fromEntries(STATUS_VALUES.map((status) => [status, labels[status] ?? '']));
    await this.labelsPage(reply, view, 200, typed, {}, notice === 'saved' ? 'The display names were saved.' : null);
  }

  @Post()
  async change(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const view = await this.pages.signedIn(request, {
      form: true,
      permission: 'manage_status_labels',
      doing: 'change the status display names',
    });
    // A status whose field is not posted keeps its label; one posted empty gets its default back.
    const typed: Record<string, string> = {};
    const errors: Record<string, string> = {};
    for (const status of STATUS_VALUES) {
      const raw = field(request.body, labelField(status));
      if (raw === undefined) continue;
      typed[status] = raw;
      const input = statusLabelInput(status, raw);
      if (input.problem !== undefined) errors[status] = input.problem;
    }
    if (Object.keys(errors).length > 0) return this.labelsPage(reply, view, 400, typed, errors, null);
    await this.commands.execute(new ChangeStatusLabelsCommand(this.pages.context(request, view), typed));
    seeOther(reply, `${STATUS_LABELS_PATH}?notice=saved`);
  }

  private labelsOf(view: SignedInView): Promise<StatusLabels> {
    return this.queries.execute(new GetStatusLabelsQuery(view.member.workspaceId));
  }

  private async labelsPage(
    reply: FastifyReply,
    view: SignedInView,
    status: number,
    typed: Record<string, string>,
    errors: Record<string, string>,
    notice: string | null,
  ) {
    const saved = status === 200 ? null : await this.labelsOf(view);
    await this.pages.page(reply, status, 'status-labels', {
      ...layoutData('Status display names', view, 'statuses'),
      mayManage: mayDo(view.member.role, 'manage_status_labels'),
      notice,
      max: STATUS_LABEL_LIMITS.max,
      errors: STATUS_VALUES.filter((s) => errors[s]).map((s) => ({ id: `${labelField(s)}-error`, message: errors[s] })),
      statuses: STATUS_VALUES.map((value) => ({
        value,
        field: labelField(value),
        defaultLabel: DEFAULT_STATUS_LABELS[value],
        typed: typed[value] ?? saved?.[value] ?? '',
        error: errors[value] ?? null,
      })),
    });
  }
}
