import { Controller, Get, Inject, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiKeyList,
  ApiKeyListItem,
  CommandContext,
  CreateApiKeyCommand,
  CreatedWebhook,
  CreateWebhookCommand,
  DeleteWebhookCommand,
  DeliveryAttemptList,
  GetWebhookPauseQuery,
  GetWebhookQuery,
  ListWebhookDeliveriesQuery,
  ListWebhooksQuery,
  RecoverWebhookDeliveriesCommand,
  ResendWebhookDeliveryCommand,
  RotateWebhookSecretCommand,
  TestWebhookCommand,
  UpdateWebhookCommand,
  WebhookList,
  WebhookPause,
  DashboardAccess,
  DashboardPermission,
  DASHBOARD_SETTINGS,
  DashboardSettings,
  DeactivateApiKeyCommand,
  GetApiKeyQuery,
  GetTeamMemberQuery,
  ListApiKeysQuery,
  ListTeamQuery,
  mayDo,
  TeamList,
  TeamMember,
} from '@app/application';
import {
  API_KEY_SCOPES,
  ApiKeyScope,
  DomainError,
  notFound,
  WEBHOOK_MESSAGES,
  WebhookEventType,
  WebhookView,
  WORKSPACE_LIMITS,
  WORKSPACE_MESSAGES,
} from '@app/domain';
import { Public } from '../http/auth';
import { notModified } from '../openapi/static-file';
import { DashboardExceptionFilter } from './dashboard-exception.filter';
import { dashboardAssets } from './dashboard-files';
import {
  crossSite,
  DASHBOARD_SECURITY_HEADERS,
  seeOther,
  sendPage,
  sessionCookie,
  sessionCookieOf,
} from './dashboard-http';
import { CSRF_REFUSED, DashboardProblem, LINK_REFUSED, NOT_ALLOWED, SIGN_IN_REQUIRED } from './dashboard-problem';
import {
  actorText,
  layoutData,
  ROLE_LABELS,
  SCOPE_LABELS,
  SignedInView,
  STATUS_LABELS,
  timeView,
} from './dashboard-view-data';
import {
  deliveryRows,
  pauseText,
  EMPTY_WEBHOOK_FORM,
  eventTypeChoices,
  FieldErrors,
  fieldOfValidation,
  parseUtcMinute,
  RECOVER_FORM_MESSAGES,
  utcMinuteValue,
  WebhookForm,
  webhookRow,
} from './dashboard-webhooks';

type Form = Record<string, unknown>;

/** The one value of a form field, or undefined (absent, or sent several times). */
const field = (body: unknown, name: string): string | undefined => {
  const value = body && typeof body === 'object' ? (body as Form)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
};

/** A query parameter's one value, if it is a plain token (cursors). */
const cursorOf = (raw: unknown): string | undefined =>
  typeof raw === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(raw) ? raw : undefined;

/**
 * The workspace dashboard (docs/dashboard.md): server-rendered pages under /dashboard, outside the
 * API. Signed in by a member's session cookie only: API keys and the operator token mean nothing
 * here, and the cookie means nothing to /v1 (whose guard reads the bearer credential alone). Each
 * route resolves the session, re-reads the member and checks the role's permission before doing
 * anything; each form post also checks the session's CSRF token. Changes go through the same
 * commands as the API's and the operator's, with the member as their actor.
 */
@ApiExcludeController()
@Public()
@UseFilters(DashboardExceptionFilter)
@Controller('dashboard')
export class DashboardController {
  constructor(
    private readonly access: DashboardAccess,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(DASHBOARD_SETTINGS) private readonly settings: DashboardSettings,
  ) {}

  @Get()
  async home(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const signedIn = await this.access.resume(sessionCookieOf(request));
    if (signedIn) return seeOther(reply, '/dashboard/api-keys');
    await this.page(reply, 200, 'signed-out', {
      ...layoutData('Workspace dashboard', undefined),
      title: 'Workspace dashboard',
      message: 'You are not signed in.',
    });
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const file = dashboardAssets().files.get(name);
    if (!file) throw notFound('No such file');
    void reply.headers({ ...DASHBOARD_SECURITY_HEADERS, etag: file.etag, 'cache-control': file.cacheControl });
    if (notModified(request.headers['if-none-match'], file.etag)) return void reply.code(304).send();
    void reply.type(file.contentType).send(file.body);
  }

  /** The link's page: a GET only shows a button, so link previewers that fetch it do not use it up. */
  @Get('sign-in')
  async signInPage(@Query('token') token: unknown, @Res() reply: FastifyReply) {
    if (typeof token !== 'string' || token.length === 0 || token.length > 100) throw LINK_REFUSED();
    await this.page(reply, 200, 'sign-in', { ...layoutData('Sign in', undefined), token });
  }

  @Post('sign-in')
  async signIn(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (crossSite(request)) throw CSRF_REFUSED();
    const signedIn = await this.access.signIn(field(request.body, 'token'));
    if (!signedIn) throw LINK_REFUSED();
    // A session this browser already had ends: its cookie is replaced, and it must not live on unseen.
    await this.access.signOut(sessionCookieOf(request));
    const maxAge = Math.floor(this.settings.absoluteTimeoutMs / 1000);
    void reply.header('set-cookie', sessionCookie(request, signedIn.sessionId, maxAge));
    seeOther(reply, '/dashboard/api-keys');
  }

  @Post('sign-out')
  async signOut(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.signedIn(request, { form: true });
    await this.access.signOut(sessionCookieOf(request));
    void reply.header('set-cookie', sessionCookie(request, '', 0));
    request.dashboard = undefined;
    await this.page(reply, 200, 'signed-out', {
      ...layoutData('Signed out', undefined),
      title: 'Signed out',
      message: 'You have signed out of the dashboard.',
    });
  }

  @Get('api-keys')
  async apiKeys(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Query('cursor') cursor: unknown,
    @Query('notice') notice: unknown,
  ) {
    const view = await this.signedIn(request, { permission: 'view_api_keys' });
    await this.keysPage(reply, view, 200, {
      cursor: cursorOf(cursor),
      notice: notice === 'deactivated' ? 'The key was deactivated.' : null,
    });
  }

  @Post('api-keys')
  async createApiKey(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const view = await this.signedIn(request, { form: true, permission: 'manage_api_keys', doing: 'create API keys' });
    const name = (field(request.body, 'name') ?? '').trim();
    const scope = field(request.body, 'scope');
    const form = { name, scope: scope ?? 'read_only' };
    const length = [...name].length;
    const problem =
      length === 0
        ? WORKSPACE_MESSAGES.nameRequired
        : length > WORKSPACE_LIMITS.apiKeyName.max
          ? WORKSPACE_MESSAGES.nameLength
          : !(API_KEY_SCOPES as readonly string[]).includes(scope ?? '')
            ? WORKSPACE_MESSAGES.scope
            : null;
    if (problem) return this.keysPage(reply, view, 400, { error: problem, form });
    const created = await this.commands.execute(
      new CreateApiKeyCommand(this.context(request, view), view.member.workspaceId, {
        name,
        scope: scope as ApiKeyScope,
      }),
    );
    await this.page(reply, 201, 'api-key-created', {
      ...layoutData('API key created', view, 'api-keys'),
      key: { id: created.id, name, scopeLabel: SCOPE_LABELS[scope!], secret: created.key },
    });
  }

  @Get('api-keys/:keyId/deactivate')
  async confirmDeactivation(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('keyId') keyId: string) {
    const view = await this.signedIn(request, { permission: 'manage_api_keys', doing: 'deactivate API keys' });
    const key = await this.ownKey(view, keyId);
    if (key.status !== 'active') return seeOther(reply, '/dashboard/api-keys');
    await this.page(reply, 200, 'api-key-deactivate', {
      ...layoutData('Deactivate an API key', view, 'api-keys'),
      key: { id: key.id, name: key.name },
    });
  }

  @Post('api-keys/:keyId/deactivate')
  async deactivate(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('keyId') keyId: string) {
    const view = await this.signedIn(request, {
      form: true,
      permission: 'manage_api_keys',
      doing: 'deactivate API keys',
    });
    // The command finds another workspace's key as a missing one (the member's context names the workspace).
    await this.commands.execute(new DeactivateApiKeyCommand(this.context(request, view), keyId));
    seeOther(reply, '/dashboard/api-keys?notice=deactivated');
  }

  @Get('team')
  async team(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('cursor') cursor: unknown) {
    const view = await this.signedIn(request, { permission: 'view_team' });
    const list: TeamList = await this.queries.execute(
      new ListTeamQuery(view.member.workspaceId, { cursor: cursorOf(cursor) }),
    );
    await this.page(reply, 200, 'team', {
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

  @Get('webhooks')
  async webhooks(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Query('cursor') cursor: unknown,
    @Query('notice') notice: unknown,
  ) {
    const view = await this.signedIn(request, { permission: 'view_webhooks' });
    await this.webhooksPage(reply, view, 200, {
      cursor: cursorOf(cursor),
      notice: notice === 'deleted' ? 'The webhook was deleted.' : null,
    });
  }

  @Post('webhooks')
  async createWebhook(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const view = await this.signedIn(request, { form: true, permission: 'manage_webhooks', doing: 'create webhooks' });
    const form = webhookFormOf(request.body);
    let created: CreatedWebhook;
    try {
      created = await this.commands.execute(
        new CreateWebhookCommand(this.context(request, view), {
          name: form.name,
          url: form.url,
          event_types: form.eventTypes as WebhookEventType[],
        }),
      );
    } catch (error) {
      const errors = fieldOfValidation(error);
      if (!errors) throw error;
      return this.webhooksPage(reply, view, 400, { errors, form });
    }
    await this.page(reply, 201, 'webhook-secret', {
      ...layoutData('Webhook created', view, 'webhooks'),
      heading: 'Webhook created',
      webhook: { id: created.id, name: created.name, url: created.url },
      secret: created.secret,
      previousExpires: null,
    });
  }

  @Get('webhooks/:webhookId')
  async webhook(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
    @Query('cursor') cursor: unknown,
    @Query('notice') notice: unknown,
    @Query('count') count: unknown,
  ) {
    const view = await this.signedIn(request, { permission: 'view_webhooks' });
    await this.webhookPage(reply, view, 200, webhookId, {
      cursor: cursorOf(cursor),
      notice: webhookNotice(notice, count),
    });
  }

  @Get('webhooks/:webhookId/edit')
  async editWebhookPage(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
  ) {
    const view = await this.signedIn(request, { permission: 'manage_webhooks', doing: 'edit webhooks' });
    const webhook = await this.ownWebhook(view, webhookId);
    await this.editPage(reply, view, 200, webhook, {
      form: { name: webhook.name, url: webhook.url, eventTypes: webhook.event_types },
      errors: {},
    });
  }

  @Post('webhooks/:webhookId/edit')
  async editWebhook(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('webhookId') webhookId: string) {
    const view = await this.signedIn(request, { form: true, permission: 'manage_webhooks', doing: 'edit webhooks' });
    const webhook = await this.ownWebhook(view, webhookId);
    const form = webhookFormOf(request.body);
    const changes: { name?: string; url?: string; event_types?: WebhookEventType[] } = {};
    if (form.name !== webhook.name) changes.name = form.name;
    if (form.url !== webhook.url) changes.url = form.url;
    const sameTypes =
      form.eventTypes.length === webhook.event_types.length &&
      form.eventTypes.every((t) => (webhook.event_types as readonly string[]).includes(t));
    if (!sameTypes) changes.event_types = form.eventTypes as WebhookEventType[];
    // The API asks for a non-empty list on update too; the form says so next to the checkboxes.
    if (form.eventTypes.length === 0) {
      return this.editPage(reply, view, 400, webhook, {
        form,
        errors: { event_types: WEBHOOK_MESSAGES.eventTypesRequired },
      });
    }
    if (Object.keys(changes).length === 0) return seeOther(reply, `/dashboard/webhooks/${webhook.id}?notice=unchanged`);
    try {
      await this.commands.execute(new UpdateWebhookCommand(this.context(request, view), webhook.id, changes));
    } catch (error) {
      const errors = fieldOfValidation(error);
      if (!errors) throw error;
      return this.editPage(reply, view, 400, webhook, { form, errors });
    }
    seeOther(reply, `/dashboard/webhooks/${webhook.id}?notice=updated`);
  }

  @Post('webhooks/:webhookId/pause')
  async pauseWebhook(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
  ) {
    const view = await this.signedIn(request, { form: true, permission: 'manage_webhooks', doing: 'pause webhooks' });
    await this.commands.execute(new UpdateWebhookCommand(this.context(request, view), webhookId, { status: 'paused' }));
    seeOther(reply, `/dashboard/webhooks/${encodeURIComponent(webhookId)}?notice=paused`);
  }

  @Post('webhooks/:webhookId/resume')
  async resumeWebhook(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
  ) {
    const view = await this.signedIn(request, { form: true, permission: 'manage_webhooks', doing: 'resume webhooks' });
    await this.commands.execute(new UpdateWebhookCommand(this.context(request, view), webhookId, { status: 'active' }));
    seeOther(reply, `/dashboard/webhooks/${encodeURIComponent(webhookId)}?notice=resumed`);
  }

  @Get('webhooks/:webhookId/delete')
  async confirmWebhookDeletion(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
  ) {
    const view = await this.signedIn(request, { permission: 'manage_webhooks', doing: 'delete webhooks' });
    const webhook = await this.ownWebhook(view, webhookId);
    await this.page(reply, 200, 'webhook-confirm', {
      ...layoutData('Delete a webhook', view, 'webhooks'),
      heading: `Delete “${webhook.name}”?`,
      explanation:
        'Deliveries stop at once; its queued deliveries and its delivery log are deleted with it. This cannot be undone.',
      action: `/dashboard/webhooks/${webhook.id}/delete`,
      button: 'Delete webhook',
      cancel: `/dashboard/webhooks/${webhook.id}`,
    });
  }

  @Post('webhooks/:webhookId/delete')
  async deleteWebhook(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
  ) {
    const view = await this.signedIn(request, { form: true, permission: 'manage_webhooks', doing: 'delete webhooks' });
    await this.commands.execute(new DeleteWebhookCommand(this.context(request, view), webhookId));
    seeOther(reply, '/dashboard/webhooks?notice=deleted');
  }

  @Get('webhooks/:webhookId/rotate-secret')
  async confirmRotation(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
  ) {
    const view = await this.signedIn(request, { permission: 'manage_webhooks', doing: 'rotate webhook secrets' });
    const webhook = await this.ownWebhook(view, webhookId);
    await this.page(reply, 200, 'webhook-confirm', {
      ...layoutData('Rotate a webhook secret', view, 'webhooks'),
      heading: `Rotate the secret of “${webhook.name}”?`,
      explanation:
        'A new signing secret is made and shown once. For 24 hours deliveries carry a signature with each secret, so the receiver can switch over.',
      action: `/dashboard/webhooks/${webhook.id}/rotate-secret`,
      button: 'Rotate secret',
      cancel: `/dashboard/webhooks/${webhook.id}`,
    });
  }

  @Post('webhooks/:webhookId/rotate-secret')
  async rotateSecret(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
  ) {
    const view = await this.signedIn(request, {
      form: true,
      permission: 'manage_webhooks',
      doing: 'rotate webhook secrets',
    });
    const rotated = await this.commands.execute(new RotateWebhookSecretCommand(this.context(request, view), webhookId));
    const webhook = await this.ownWebhook(view, webhookId);
    await this.page(reply, 200, 'webhook-secret', {
      ...layoutData('Webhook secret rotated', view, 'webhooks'),
      heading: 'Webhook secret rotated',
      webhook: { id: webhook.id, name: webhook.name, url: webhook.url },
      secret: rotated.secret,
      previousExpires: timeView(rotated.previous_secret_expires_at),
    });
  }

  @Post('webhooks/:webhookId/test')
  async testWebhook(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('webhookId') webhookId: string) {
    const view = await this.signedIn(request, { form: true, permission: 'manage_webhooks', doing: 'send test events' });
    const attempt = await this.commands.execute(new TestWebhookCommand(this.context(request, view), webhookId));
    const notice = attempt.succeeded ? 'test-succeeded' : 'test-failed';
    seeOther(reply, `/dashboard/webhooks/${encodeURIComponent(webhookId)}?notice=${notice}`);
  }

  @Post('webhooks/:webhookId/recover')
  async recoverDeliveries(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
  ) {
    const view = await this.signedIn(request, {
      form: true,
      permission: 'manage_webhooks',
      doing: 'recover deliveries',
    });
    const raw = field(request.body, 'since') ?? '';
    const since = parseUtcMinute(raw);
    const problem =
      since === null ? RECOVER_FORM_MESSAGES.since : since > Date.now() ? RECOVER_FORM_MESSAGES.future : null;
    if (problem) return this.webhookPage(reply, view, 400, webhookId, { recover: { since: raw, error: problem } });
    let count: number;
    try {
      ({ count } = await this.commands.execute(
        new RecoverWebhookDeliveriesCommand(this.context(request, view), webhookId, since!, undefined),
      ));
    } catch (error) {
      // A paused subscription: said on the form, where the member asked.
      if (error instanceof DomainError && error.kind === 'conflict')
        return this.webhookPage(reply, view, 409, webhookId, { recover: { since: raw, error: error.message } });
      throw error;
    }
    seeOther(reply, `/dashboard/webhooks/${encodeURIComponent(webhookId)}?notice=recovered&count=${count}`);
  }

  @Post('webhooks/:webhookId/deliveries/:deliveryId/resend')
  async resendDelivery(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
    @Param('deliveryId') deliveryId: string,
  ) {
    const view = await this.signedIn(request, {
      form: true,
      permission: 'manage_webhooks',
      doing: 'resend deliveries',
    });
    try {
      await this.commands.execute(new ResendWebhookDeliveryCommand(this.context(request, view), webhookId, deliveryId));
    } catch (error) {
      // Paused, or queued already: said on the subscription's page. Not found stays a 404 page.
      if (error instanceof DomainError && error.kind === 'conflict')
        return this.webhookPage(reply, view, 409, webhookId, { error: error.message });
      throw error;
    }
    seeOther(reply, `/dashboard/webhooks/${encodeURIComponent(webhookId)}?notice=resent`);
  }

  /** Any other page under /dashboard: a page saying so, rather than the API's JSON. Declared last. */
  @Get('*')
  async unknownPage(@Req() request: FastifyRequest) {
    const signedIn = await this.access.resume(sessionCookieOf(request));
    if (signedIn) await this.signedIn(request, {});
    throw new DashboardProblem(404, 'Page not found', 'There is no such page in the dashboard.');
  }

  // Shared steps.

  /**
   * The signed-in member of this request, read for it, or a refusal: 401 without a live session,
   * 403 for a form post from elsewhere or without the session's CSRF token, 403 for a role without
   * the permission. Kept on the request for the page (and any error page) to show.
   */
  private async signedIn(
    request: FastifyRequest,
    need: { form?: boolean; permission?: DashboardPermission; doing?: string },
  ): Promise<SignedInView> {
    if (need.form && crossSite(request)) throw CSRF_REFUSED();
    const sessionId = sessionCookieOf(request);
    const signedIn = await this.access.resume(sessionId);
    if (!signedIn) throw SIGN_IN_REQUIRED();
    const member = await this.queries
      .execute<GetTeamMemberQuery, TeamMember>(new GetTeamMemberQuery(signedIn.workspaceId, signedIn.memberId))
      .catch(() => null);
    const view: SignedInView = {
      member: {
        id: signedIn.memberId,
        role: signedIn.role,
        roleLabel: ROLE_LABELS[signedIn.role] ?? signedIn.role,
        displayName: member ? displayNameOf(member) : signedIn.memberId,
        workspaceId: signedIn.workspaceId,
        workspaceName: signedIn.workspaceName,
      },
      csrf: this.access.csrfToken(signedIn.sessionId),
    };
    request.dashboard = view;
    if (need.form && !this.access.csrfTokenMatches(signedIn.sessionId, field(request.body, '_csrf'))) {
      throw CSRF_REFUSED();
    }
    if (need.permission && !mayDo(signedIn.role, need.permission)) {
      throw NOT_ALLOWED(need.doing ?? 'see this page');
    }
    return view;
  }

  /** The command context of a member's change: the member is the actor, the session's workspace the tenant. */
  private context(request: FastifyRequest, view: SignedInView): CommandContext {
    const requestId = String(request.id);
    return {
      actor: { type: 'member', id: view.member.id },
      workspaceId: view.member.workspaceId,
      requestId,
      causationId: requestId,
      consistency: { pending: [] },
    };
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
    const memberIds = new Set(
      list.api_keys.flatMap((k) =>
        [k.created_by, k.deactivated_by].flatMap((actor) => (actor?.type === 'member' ? [actor.id] : [])),
      ),
    );
    const names = new Map<string, string>();
    await Promise.all(
      [...memberIds].map(async (id) => {
        const member = await this.queries
          .execute<GetTeamMemberQuery, TeamMember>(new GetTeamMemberQuery(view.member.workspaceId, id))
          .catch(() => null);
        if (member) names.set(id, displayNameOf(member));
      }),
    );
    await this.page(reply, status, 'api-keys', {
      ...layoutData('API keys', view, 'api-keys'),
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

  /** A webhook of the member's workspace; another workspace's is not found, like a missing one. */
  private ownWebhook(view: SignedInView, webhookId: string): Promise<WebhookView> {
    return this.queries.execute(new GetWebhookQuery(view.member.workspaceId, webhookId));
  }

  private async webhooksPage(
    reply: FastifyReply,
    view: SignedInView,
    status: number,
    options: { cursor?: string; notice?: string | null; errors?: FieldErrors; form?: WebhookForm },
  ) {
    const list: WebhookList = await this.queries.execute(
      new ListWebhooksQuery(view.member.workspaceId, options.cursor),
    );
    const form = options.form ?? EMPTY_WEBHOOK_FORM;
    await this.page(reply, status, 'webhooks', {
      ...layoutData('Webhooks', view, 'webhooks'),
      mayManage: mayDo(view.member.role, 'manage_webhooks'),
      notice: options.notice ?? null,
      errors: options.errors ?? {},
      form,
      eventTypes: eventTypeChoices(form),
      webhooks: await this.withPauses(view, list.webhooks),
      next: list.cursor ? `/dashboard/webhooks?cursor=${encodeURIComponent(list.cursor)}` : null,
    });
  }

  /** The rows of these webhooks, a paused one saying why and when (from its history). */
  private async withPauses(view: SignedInView, webhooks: readonly WebhookView[]) {
    const workspaceId = view.member.workspaceId;
    const pauses = await Promise.all(
      webhooks.map((w) =>
        w.status === 'paused'
          ? this.queries.execute<GetWebhookPauseQuery, WebhookPause | null>(new GetWebhookPauseQuery(workspaceId, w.id))
          : null,
      ),
    );
    const memberIds = new Set(
      pauses.flatMap((p) => (p?.reason === 'by_hand' && p.actor.type === 'member' ? [p.actor.id] : [])),
    );
    const names = new Map<string, string>();
    await Promise.all(
      [...memberIds].map(async (id) => {
        const member = await this.queries
          .execute<GetTeamMemberQuery, TeamMember>(new GetTeamMemberQuery(workspaceId, id))
          .catch(() => null);
        if (member) names.set(id, displayNameOf(member));
      }),
    );
    return webhooks.map((w, i) => {
      const pause = pauses[i];
      return { ...webhookRow(w), pause: pause ? { text: pauseText(pause, names), at: timeView(pause.at) } : null };
    });
  }

  private async editPage(
    reply: FastifyReply,
    view: SignedInView,
    status: number,
    webhook: WebhookView,
    options: { form: WebhookForm; errors: FieldErrors },
  ) {
    await this.page(reply, status, 'webhook-edit', {
      ...layoutData(`Edit ${webhook.name}`, view, 'webhooks'),
      webhook: { id: webhook.id, name: webhook.name },
      form: options.form,
      errors: options.errors,
      eventTypes: eventTypeChoices(options.form),
    });
  }

  private async webhookPage(
    reply: FastifyReply,
    view: SignedInView,
    status: number,
    webhookId: string,
    options: { cursor?: string; notice?: string | null; error?: string; recover?: { since: string; error: string } },
  ) {
    const webhook = await this.ownWebhook(view, webhookId);
    const log: DeliveryAttemptList = await this.queries.execute(
      new ListWebhookDeliveriesQuery(view.member.workspaceId, webhook.id, options.cursor),
    );
    const mayManage = mayDo(view.member.role, 'manage_webhooks');
    await this.page(reply, status, 'webhook', {
      ...layoutData(webhook.name, view, 'webhooks'),
      mayManage,
      notice: options.notice ?? null,
      error: options.error ?? null,
      webhook: (await this.withPauses(view, [webhook]))[0],
      recover: options.recover ?? { since: utcMinuteValue(Date.now() - 24 * 3_600_000), error: null },
      deliveries: deliveryRows(log.deliveries, mayManage && webhook.status === 'active'),
      next: log.cursor ? `/dashboard/webhooks/${webhook.id}?cursor=${encodeURIComponent(log.cursor)}` : null,
    });
  }

  private async page(reply: FastifyReply, status: number, template: string, data: object) {
    sendPage(reply, status, await reply.viewAsync(template, data));
  }
}

/** The webhook form's fields as posted: one name and url, any number of event types. */
function webhookFormOf(body: unknown): WebhookForm {
  const raw = body && typeof body === 'object' ? (body as Form).event_types : undefined;
  const types = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return {
    name: (field(body, 'name') ?? '').trim(),
    url: (field(body, 'url') ?? '').trim(),
    eventTypes: types.filter((t): t is string => typeof t === 'string'),
  };
}

/** The notice a subscription's page shows after a change (a fixed set: nothing from the URL is echoed). */
function webhookNotice(notice: unknown, count: unknown): string | null {
  switch (notice) {
    case 'updated':
      return 'The webhook was updated.';
    case 'unchanged':
      return 'Nothing was changed.';
    case 'paused':
      return 'The webhook is paused: no deliveries are made until it is resumed.';
    case 'resumed':
      return 'The webhook is active again; its failure count starts from zero.';
    case 'test-succeeded':
      return 'The test event was delivered.';
    case 'test-failed':
      return 'The test event could not be delivered: see the log below.';
    case 'resent':
      return 'The delivery is queued again, with the same webhook-id.';
    case 'recovered': {
      const n = typeof count === 'string' && /^\d{1,9}$/.test(count) ? Number(count) : 0;
      return `${n} failed ${n === 1 ? 'delivery is' : 'deliveries are'} queued again.`;
    }
    default:
      return null;
  }
}

function displayNameOf(member: TeamMember): string {
  return [member.first_name, member.last_name].filter(Boolean).join(' ') || member.email;
}
