import { Controller, Get, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiKeyDailyRequests,
  ApiKeyDailyRequestsQuery,
  ApiKeyList,
  ApiKeyListItem,
  CreateApiKeyCommand,
  DeactivateApiKeyCommand,
  GetApiKeyQuery,
  ListApiKeysQuery,
  mayDo,
} from '@app/application';
import { API_KEY_SCOPES, ApiKeyScope, WORKSPACE_LIMITS, WORKSPACE_MESSAGES } from '@app/domain';
import { Public } from '../http/auth';
import { chartView, dayLabel } from './dashboard-charts';
import { DashboardExceptionFilter } from './dashboard-exception.filter';
import { seeOther } from './dashboard-http';
import { cursorOf, DashboardPages, field } from './dashboard-pages';
import { actorText, layoutData, SCOPE_LABELS, SignedInView, STATUS_LABELS, timeView } from './dashboard-view-data';

/** The dashboard's API keys screen (docs/dashboard.md): the workspace's keys, creating and deactivating them. */
@ApiExcludeController()
@Public()
@UseFilters(DashboardExceptionFilter)
@Controller('dashboard')
export class DashboardApiKeysController {
  constructor(
    private readonly pages: DashboardPages,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('api-keys')
  async apiKeys(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Query('cursor') cursor: unknown,
    @Query('notice') notice: unknown,
  ) {
    const view = await this.pages.signedIn(request, { permission: 'view_api_keys' });
    await this.keysPage(reply, view, 200, {
      cursor: cursorOf(cursor),
      notice: notice === 'deactivated' ? 'The key was deactivated.' : null,
    });
  }

  @Post('api-keys')
  async createApiKey(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const view = await this.pages.signedIn(request, {
      form: true,
      permission: 'manage_api_keys',
      doing: 'create API keys',
    });
    const name = (field(request.body, 'name') ?? '').trim();
    const scope = field(request.body, 'scope');
    const form = { name, scope: scope ?? 'read_only' };
    const problem = apiKeyFormProblem(name, scope);
    if (problem) return this.keysPage(reply, view, 400, { error: problem, form });
    const created = await this.commands.execute(
      new CreateApiKeyCommand(this.pages.context(request, view), view.member.workspaceId, {
        name,
        scope: scope as ApiKeyScope,
      }),
    );
    await this.pages.page(reply, 201, 'api-key-created', {
      ...layoutData('API key created', view, 'api-keys'),
      key: { id: created.id, name, scopeLabel: SCOPE_LABELS[scope!], secret: created.key },
    });
  }

  @Get('api-keys/:keyId/deactivate')
  async confirmDeactivation(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('keyId') keyId: string) {
    const view = await this.pages.signedIn(request, { permission: 'manage_api_keys', doing: 'deactivate API keys' });
    const key = await this.ownKey(view, keyId);
    if (key.status !== 'active') return seeOther(reply, '/dashboard/api-keys');
    await this.pages.page(reply, 200, 'api-key-deactivate', {
      ...layoutData('Deactivate an API key', view, 'api-keys'),
      key: { id: key.id, name: key.name },
    });
  }

  @Post('api-keys/:keyId/deactivate')
  async deactivate(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('keyId') keyId: string) {
    const view = await this.pages.signedIn(request, {
      form: true,
      permission: 'manage_api_keys',
      doing: 'deactivate API keys',
    });
    // The command finds another workspace's key as a missing one (the member's context names the workspace).
    await this.commands.execute(new DeactivateApiKeyCommand(this.pages.context(request, view), keyId));
    seeOther(reply, '/dashboard/api-keys?notice=deactivated');
  }

  /** A key of the member's workspace; another workspace's key is not found, like a missing one. */
  private ownKey(view: SignedInView, keyId: string): Promise<ApiKeyListItem> {
    return this.queries.execute(new GetApiKeyQuery(view.member.workspaceId, keyId));
  }

  private async keysPage(
    reply: FastifyReply,
    view: SignedInView,
    status: number,
    options: { cursor?: string; notice?: string | null; error?: string; form?: { name: string; scope: string } },
  ) {
    const list: ApiKeyList = await this.queries.execute(new ListApiKeysQuery(view.member.workspaceId, options.cursor));
    const names = await this.pages.memberNames(
      view.member.workspaceId,
      list.api_keys.flatMap((k) =>
        [k.created_by, k.deactivated_by].flatMap((actor) => (actor?.type === 'member' ? [actor.id] : [])),
      ),
    );
    const usage: ApiKeyDailyRequests = await this.queries.execute(
      new ApiKeyDailyRequestsQuery(
        list.api_keys.map((k) => k.id),
        CHART_DAYS,
      ),
    );
    await this.pages.page(reply, status, 'api-keys', {
      ...layoutData('API keys', view, 'api-keys'),
      charts: list.api_keys.length > 0,
      chart: list.api_keys.length > 0 ? requestsChart(list.api_keys, usage) : null,
      mayManage: mayDo(view.member.role, 'manage_api_keys'),
      notice: options.notice ?? null,
      error: options.error ?? null,
      form: options.form ?? { name: '', scope: 'read_only' },
      keys: list.api_keys.map((k) => ({
        id: k.id,
        name: k.name,
        scopeLabel: SCOPE_LABELS[k.scope] ?? k.scope,
        created: timeView(k.created),
        createdBy: actorText(k.created_by, names),
        lastUsed: k.last_used_at === null ? null : timeView(k.last_used_at),
        status: k.status,
        statusLabel: STATUS_LABELS[k.status] ?? k.status,
        deactivated:
          k.deactivated === null ? null : { at: timeView(k.deactivated), by: actorText(k.deactivated_by, names) },
      })),
      next: list.cursor ? `/dashboard/api-keys?cursor=${encodeURIComponent(list.cursor)}` : null,
    });
  }
}

/** Days the requests chart covers, today included. */
const CHART_DAYS = 14;

/** Requests per key and day, one series per key of the page (a key without requests is in the table only). */
function requestsChart(keys: ApiKeyListItem[], usage: ApiKeyDailyRequests) {
  const series = keys.map((k) => ({ label: k.name, values: usage.requests.get(k.id) ?? usage.days.map(() => 0) }));
  const total = series.reduce((n, s) => n + s.values.reduce((a, b) => a + b, 0), 0);
  return chartView({
    id: 'requests-chart',
    title: `Requests per key over the last ${CHART_DAYS} days`,
    summary:
      total === 0
        ? 'No requests in this period.'
        : `${total} request${total === 1 ? '' : 's'} in this period; per day, in UTC, counted to the minute.`,
    kind: 'bar',
    stacked: true,
    unit: 'requests',
    labels: usage.days.map(dayLabel),
    series,
  });
}

/** What is wrong with a new key's name and scope as posted, in the API's words, or null. */
function apiKeyFormProblem(name: string, scope: string | undefined): string | null {
  const length = [...name].length;
  if (length === 0) return WORKSPACE_MESSAGES.nameRequired;
  if (length > WORKSPACE_LIMITS.apiKeyName.max) return WORKSPACE_MESSAGES.nameLength;
  if (!(API_KEY_SCOPES as readonly string[]).includes(scope ?? '')) return WORKSPACE_MESSAGES.scope;
  return null;
}
