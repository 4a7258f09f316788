import { Controller, Get, Inject, Param, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CreateWorkspaceCommand,
  DashboardAccess,
  GetWorkspaceQuery,
  ListApiKeysQuery,
  ListTeamQuery,
  ListWorkspacesQuery,
  UpdateWorkspaceCommand,
  WorkspaceListItem,
} from '@app/application';
import { PLANS, validationError, WORKSPACE_MESSAGES } from '@app/domain';
import type { AppConfig } from '../config';
import { Public } from '../http/auth';
import { APP_CONFIG } from '../tokens';
import { seeOther, sessionCookie } from '../dashboard/dashboard-http';
import { cursorOf, field } from '../dashboard/dashboard-pages';
import { DashboardProblem } from '../dashboard/dashboard-problem';
import { timeView } from '../dashboard/dashboard-view-data';
import { ConsoleExceptionFilter } from './console-exception.filter';
import {
  API_KEY_REFUSED,
  CONSOLE_COOKIE,
  CONSOLE_CSRF_REFUSED,
  ConsoleApiKeyRefusal,
  consoleLayout,
  ConsolePages,
  isApiKey,
} from './console-pages';
import { crossSite } from '../dashboard/dashboard-http';

const SIGN_IN_FAILED = 'That is not a valid operator credential or admin token (or it has been revoked).';

/** The plan and limit a form sent: a plan among the plans, a limit as a whole number or empty for none. */
function planAndLimit(body: unknown): { plan?: string; projectLimit?: number | null } {
  const plan = field(body, 'plan');
  if (plan !== undefined && !(PLANS as readonly string[]).includes(plan))
    throw validationError(WORKSPACE_MESSAGES.plan);
  const raw = field(body, 'project_limit');
  if (raw === undefined) return { plan };
  const text = raw.trim();
  if (text === '') return { plan, projectLimit: null };
  if (!/^[0-9]{1,10}$/.test(text)) throw validationError(WORKSPACE_MESSAGES.projectLimit);
  return { plan, projectLimit: Number(text) };
}

const workspaceRow = (w: WorkspaceListItem) => ({
  ...w,
  limitText: w.project_limit === null ? 'Unlimited' : String(w.project_limit),
  createdAt: timeView(w.created),
});

/**
 * The operator console (docs/console.md): sign-in with an operator credential or ADMIN_TOKEN typed
 * into a form, and the Workspaces screens. Signed in by the `console_session` cookie only (Path
 * /console): other bearer tokens and dashboard sessions mean nothing here, and an API key is
 * refused with `api_key_path_not_allowed` as on the operator API. Auditors see every
 * page without its write controls, and a write they post anyway is refused with 403.
 */
@ApiExcludeController()
@Public()
@UseFilters(ConsoleExceptionFilter)
@UseGuards(ConsoleApiKeyRefusal)
@Controller('console')
export class ConsoleController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly dashboard: DashboardAccess,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  async home(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (await this.pages.access.resume(this.pages.sessionOf(request))) return seeOther(reply, '/console/workspaces');
    await this.pages.page(reply, 200, 'sign-in', { ...consoleLayout('Sign in', undefined), error: null });
  }

  @Post('sign-in')
  async signIn(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (crossSite(request)) throw CONSOLE_CSRF_REFUSED();
    const typed = field(request.body, 'token');
    if (isApiKey(typed)) throw API_KEY_REFUSED();
    const operator = await this.pages.access.signIn(typed);
    if (!operator) {
      return this.pages.page(reply, 401, 'sign-in', { ...consoleLayout('Sign in', undefined), error: SIGN_IN_FAILED });
    }
    await this.pages.access.signOut(this.pages.sessionOf(request));
    const maxAge = Math.floor(this.pages.access.settings.absoluteTimeoutMs / 1000);
    void reply.header('set-cookie', sessionCookie(request, operator.sessionId, maxAge, CONSOLE_COOKIE));
    seeOther(reply, '/console/workspaces');
  }

  @Post('sign-out')
  async signOut(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.pages.signedIn(request, { form: true });
    await this.pages.access.signOut(this.pages.sessionOf(request));
    void reply.header('set-cookie', sessionCookie(request, '', 0, CONSOLE_COOKIE));
    request.console = undefined;
    await this.pages.page(reply, 200, 'sign-in', {
      ...consoleLayout('Signed out', undefined),
      error: null,
      notice: 'You have signed out of the console.',
    });
  }

  @Get('workspaces')
  async workspaces(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Query('q') q?: unknown,
    @Query('cursor') cursor?: unknown,
  ) {
    const { view } = await this.pages.signedIn(request);
    const search = typeof q === 'string' && q.trim() !== '' ? q.trim().slice(0, 100) : undefined;
    const list = await this.queries.execute(new ListWorkspacesQuery({ q: search, cursor: cursorOf(cursor) }));
    const next = list.cursor
      ? `/console/workspaces?${new URLSearchParams({ ...(search ? { q: search } : {}), cursor: list.cursor })}`
      : null;
    await this.pages.page(reply, 200, 'workspaces', {
      ...consoleLayout('Workspaces', view, 'workspaces'),
      q: search ?? '',
      workspaces: list.workspaces.map(workspaceRow),
      next,
      plans: PLANS,
    });
  }

  @Post('workspaces')
  async createWorkspace(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const operator = await this.pages.signedIn(request, { form: true, write: true });
    const name = (field(request.body, 'name') ?? '').trim();
    const { plan, projectLimit } = planAndLimit(request.body);
    if (plan === undefined) throw validationError(WORKSPACE_MESSAGES.plan);
    const created = await this.commands.execute(
      new CreateWorkspaceCommand(this.pages.context(request, operator), {
        name,
        plan: plan as never,
        projectLimit: projectLimit ?? null,
      }),
    );
    seeOther(reply, `/console/workspaces/${encodeURIComponent(created.id)}?created=1`);
  }

  @Get('workspaces/:workspaceId')
  async workspace(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('workspaceId') workspaceId: string,
    @Query('created') created?: unknown,
    @Query('updated') updated?: unknown,
  ) {
    const { view } = await this.pages.signedIn(request);
    const workspace = await this.queries.execute(new GetWorkspaceQuery(workspaceId));
    const [keys, team] = await Promise.all([
      this.queries.execute(new ListApiKeysQuery(workspaceId)),
      this.queries.execute(new ListTeamQuery(workspaceId, {})),
    ]);
    await this.pages.page(reply, 200, 'workspace', {
      ...consoleLayout(workspace.name, view, 'workspaces'),
      workspace: workspaceRow(workspace),
      keys: keys.api_keys.map((k) => ({
        ...k,
        createdAt: timeView(k.created),
        lastUsed: k.last_used_at === null ? null : timeView(k.last_used_at),
      })),
      moreKeys: keys.cursor !== null,
      members: team.team.map((m) => ({
        ...m,
        displayName: [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email,
      })),
      moreMembers: team.cursor !== null,
      plans: PLANS,
      notice: created === '1' ? 'Workspace created.' : updated === '1' ? 'Plan and limit saved.' : null,
    });
  }

  @Post('workspaces/:workspaceId')
  async updateWorkspace(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('workspaceId') workspaceId: string,
  ) {
    const operator = await this.pages.signedIn(request, { form: true, write: true });
    const { plan, projectLimit } = planAndLimit(request.body);
    await this.commands.execute(
      new UpdateWorkspaceCommand(this.pages.context(request, operator), workspaceId, {
        plan: plan as never,
        projectLimit,
      }),
    );
    seeOther(reply, `/console/workspaces/${encodeURIComponent(workspaceId)}?updated=1`);
  }

  /** Mints a member's one-time dashboard link and shows it on this answer only. */
  @Post('workspaces/:workspaceId/members/:memberId/dashboard-link')
  async mintLink(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('workspaceId') workspaceId: string,
    @Param('memberId') memberId: string,
  ) {
    const { view } = await this.pages.signedIn(request, { form: true, write: true });
    const workspace = await this.queries.execute(new GetWorkspaceQuery(workspaceId));
    const { token, expiresAt } = await this.dashboard.mintLink(workspaceId, memberId);
    const base = this.config.publicUrl ?? `${request.protocol}://${request.host}`;
    await this.pages.page(reply, 201, 'dashboard-link', {
      ...consoleLayout('Dashboard link', view, 'workspaces'),
      workspace: workspaceRow(workspace),
      link: `${base}/dashboard/sign-in?token=${token}`,
      expiresAt: timeView(expiresAt),
    });
  }

  /** Any other page under /console: a page saying so, rather than the API's JSON. */
  @Get('*')
  async unknownPage(@Req() request: FastifyRequest) {
    if (await this.pages.access.resume(this.pages.sessionOf(request))) await this.pages.signedIn(request);
    throw new DashboardProblem(404, 'Page not found', 'There is no such page in the console.');
  }
}
