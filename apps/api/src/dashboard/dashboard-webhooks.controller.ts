import { Controller, Get, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AttemptCount,
  CountWebhookAttemptsQuery,
  CreatedWebhook,
  CreateWebhookCommand,
  DAY_MS,
  DeleteWebhookCommand,
  DeliveryAttemptList,
  GetWebhookPauseQuery,
  GetWebhookQuery,
  ListWebhookDeliveriesQuery,
  ListWebhooksQuery,
  mayDo,
  RecoverWebhookDeliveriesCommand,
  ResendWebhookDeliveryCommand,
  RotateWebhookSecretCommand,
  TestWebhookCommand,
  UpdateWebhookCommand,
  WebhookList,
  WebhookPause,
} from '@app/application';
import { DomainError, WEBHOOK_MESSAGES, WebhookEventType, WebhookView } from '@app/domain';
import { Public } from '../http/auth';
import { chartView, dayLabel } from './dashboard-charts';
import { DashboardExceptionFilter } from './dashboard-exception.filter';
import { seeOther } from './dashboard-http';
import { cursorOf, DashboardPages, field, fieldValues } from './dashboard-pages';
import { layoutData, SignedInView, timeView } from './dashboard-view-data';
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

/**
 * The dashboard's webhook screens (docs/dashboard.md): the workspace's subscriptions, creating,
 * editing, pausing, resuming and deleting them, rotating a secret, test events, and the delivery
 * log with recovery and resending one delivery.
 */
@ApiExcludeController()
@Public()
@UseFilters(DashboardExceptionFilter)
@Controller('dashboard')
export class DashboardWebhooksController {
  constructor(
    private readonly pages: DashboardPages,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('webhooks')
  async webhooks(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Query('cursor') cursor: unknown,
    @Query('notice') notice: unknown,
  ) {
    const view = await this.pages.signedIn(request, { permission: 'view_webhooks' });
    await this.webhooksPage(reply, view, 200, {
      cursor: cursorOf(cursor),
      notice: notice === 'deleted' ? 'The webhook was deleted.' : null,
    });
  }

  @Post('webhooks')
  async createWebhook(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const view = await this.pages.signedIn(request, {
      form: true,
      permission: 'manage_webhooks',
      doing: 'create webhooks',
    });
    const form = webhookFormOf(request.body);
    let created: CreatedWebhook;
    try {
      created = await this.commands.execute(
        new CreateWebhookCommand(this.pages.context(request, view), {
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
    await this.pages.page(reply, 201, 'webhook-secret', {
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
    const view = await this.pages.signedIn(request, { permission: 'view_webhooks' });
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
    const view = await this.pages.signedIn(request, { permission: 'manage_webhooks', doing: 'edit webhooks' });
    const webhook = await this.ownWebhook(view, webhookId);
    await this.editPage(reply, view, 200, webhook, {
      form: { name: webhook.name, url: webhook.url, eventTypes: webhook.event_types },
      errors: {},
    });
  }

  @Post('webhooks/:webhookId/edit')
  async editWebhook(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('webhookId') webhookId: string) {
    const view = await this.pages.signedIn(request, {
      form: true,
      permission: 'manage_webhooks',
      doing: 'edit webhooks',
    });
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
      await this.commands.execute(new UpdateWebhookCommand(this.pages.context(request, view), webhook.id, changes));
    } catch (error) {
      const errors = fieldOfValidation(error);
      if (!errors) throw error;
      return this.editPage(reply, view, 400, webhook, { form, errors });
    }
    seeOther(reply, `/dashboard/webhooks/${webhook.id}?notice=updated`);
  }

  @Post('webhooks/:webhookId/pause')
  pauseWebhook(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('webhookId') webhookId: string) {
    return this.setStatus(request, reply, webhookId, 'paused', { doing: 'pause webhooks', notice: 'paused' });
  }

  @Post('webhooks/:webhookId/resume')
  resumeWebhook(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('webhookId') webhookId: string) {
    return this.setStatus(request, reply, webhookId, 'active', { doing: 'resume webhooks', notice: 'resumed' });
  }

  @Get('webhooks/:webhookId/delete')
  async confirmWebhookDeletion(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
  ) {
    return this.confirm(request, reply, webhookId, {
      doing: 'delete webhooks',
      title: 'Delete a webhook',
      heading: (name) => `Delete “${name}”?`,
      explanation:
        'Deliveries stop at once; its queued deliveries and its delivery log are deleted with it. This cannot be undone.',
      step: 'delete',
      button: 'Delete webhook',
    });
  }

  @Post('webhooks/:webhookId/delete')
  async deleteWebhook(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
  ) {
    const view = await this.pages.signedIn(request, {
      form: true,
      permission: 'manage_webhooks',
      doing: 'delete webhooks',
    });
    await this.commands.execute(new DeleteWebhookCommand(this.pages.context(request, view), webhookId));
    seeOther(reply, '/dashboard/webhooks?notice=deleted');
  }

  @Get('webhooks/:webhookId/rotate-secret')
  async confirmRotation(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
  ) {
    return this.confirm(request, reply, webhookId, {
      doing: 'rotate webhook secrets',
      title: 'Rotate a webhook secret',
      heading: (name) => `Rotate the secret of “${name}”?`,
      explanation:
        'A new signing secret is made and shown once. For 24 hours deliveries carry a signature with each secret, so the receiver can switch over.',
      step: 'rotate-secret',
      button: 'Rotate secret',
    });
  }

  @Post('webhooks/:webhookId/rotate-secret')
  async rotateSecret(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
  ) {
    const view = await this.pages.signedIn(request, {
      form: true,
      permission: 'manage_webhooks',
      doing: 'rotate webhook secrets',
    });
    const rotated = await this.commands.execute(
      new RotateWebhookSecretCommand(this.pages.context(request, view), webhookId),
    );
    const webhook = await this.ownWebhook(view, webhookId);
    await this.pages.page(reply, 200, 'webhook-secret', {
      ...layoutData('Webhook secret rotated', view, 'webhooks'),
      heading: 'Webhook secret rotated',
      webhook: { id: webhook.id, name: webhook.name, url: webhook.url },
      secret: rotated.secret,
      previousExpires: timeView(rotated.previous_secret_expires_at),
    });
  }

  @Post('webhooks/:webhookId/test')
  async testWebhook(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('webhookId') webhookId: string) {
    const view = await this.pages.signedIn(request, {
      form: true,
      permission: 'manage_webhooks',
      doing: 'send test events',
    });
    const attempt = await this.commands.execute(new TestWebhookCommand(this.pages.context(request, view), webhookId));
    const notice = attempt.succeeded ? 'test-succeeded' : 'test-failed';
    seeOther(reply, `${webhookPath(webhookId)}?notice=${notice}`);
  }

  @Post('webhooks/:webhookId/recover')
  async recoverDeliveries(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
  ) {
    const view = await this.pages.signedIn(request, {
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
        new RecoverWebhookDeliveriesCommand(this.pages.context(request, view), webhookId, since!, undefined),
      ));
    } catch (error) {
      // A paused subscription: said on the form, where the member asked.
      if (error instanceof DomainError && error.kind === 'conflict')
        return this.webhookPage(reply, view, 409, webhookId, { recover: { since: raw, error: error.message } });
      throw error;
    }
    seeOther(reply, `${webhookPath(webhookId)}?notice=recovered&count=${count}`);
  }

  @Post('webhooks/:webhookId/deliveries/:deliveryId/resend')
  async resendDelivery(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('webhookId') webhookId: string,
    @Param('deliveryId') deliveryId: string,
  ) {
    const view = await this.pages.signedIn(request, {
      form: true,
      permission: 'manage_webhooks',
      doing: 'resend deliveries',
    });
    try {
      await this.commands.execute(
        new ResendWebhookDeliveryCommand(this.pages.context(request, view), webhookId, deliveryId),
      );
    } catch (error) {
      // Paused, or queued already: said on the subscription's page. Not found stays a 404 page.
      if (error instanceof DomainError && error.kind === 'conflict')
        return this.webhookPage(reply, view, 409, webhookId, { error: error.message });
      throw error;
    }
    seeOther(reply, `${webhookPath(webhookId)}?notice=resent`);
  }

  /** Pausing or resuming a subscription by hand, then its page with a notice saying so. */
  private async setStatus(
    request: FastifyRequest,
    reply: FastifyReply,
    webhookId: string,
    status: 'paused' | 'active',
    says: { doing: string; notice: string },
  ) {
    const view = await this.pages.signedIn(request, { form: true, permission: 'manage_webhooks', doing: says.doing });
    await this.commands.execute(new UpdateWebhookCommand(this.pages.context(request, view), webhookId, { status }));
    seeOther(reply, `${webhookPath(webhookId)}?notice=${says.notice}`);
  }

  /** A webhook of the member's workspace; another workspace's is not found, like a missing one. */
  /** The page that asks a manager to confirm a step that cannot be undone, posting to `step`. */
  private async confirm(
    request: FastifyRequest,
    reply: FastifyReply,
    webhookId: string,
    ask: {
      doing: string;
      title: string;
      heading: (name: string) => string;
      explanation: string;
      step: string;
      button: string;
    },
  ) {
    const view = await this.pages.signedIn(request, { permission: 'manage_webhooks', doing: ask.doing });
    const webhook = await this.ownWebhook(view, webhookId);
    await this.pages.page(reply, 200, 'webhook-confirm', {
      ...layoutData(ask.title, view, 'webhooks'),
      heading: ask.heading(webhook.name),
      explanation: ask.explanation,
      action: `/dashboard/webhooks/${webhook.id}/${ask.step}`,
      button: ask.button,
      cancel: `/dashboard/webhooks/${webhook.id}`,
    });
  }

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
    await this.pages.page(reply, status, 'webhooks', {
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
    const names = await this.pages.memberNames(
      workspaceId,
      pauses.flatMap((p) => (p?.reason === 'by_hand' && p.actor.type === 'member' ? [p.actor.id] : [])),
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
    await this.pages.page(reply, status, 'webhook-edit', {
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
    const perDay: AttemptCount[] = await this.queries.execute(
      new CountWebhookAttemptsQuery(view.member.workspaceId, webhook.id, DAY_MS, CHART_DAYS),
    );
    await this.pages.page(reply, status, 'webhook', {
      ...layoutData(webhook.name, view, 'webhooks'),
      charts: true,
      chart: deliveriesChart(perDay),
      mayManage,
      notice: options.notice ?? null,
      error: options.error ?? null,
      webhook: (await this.withPauses(view, [webhook]))[0],
      recover: options.recover ?? { since: utcMinuteValue(Date.now() - 24 * 3_600_000), error: null },
      deliveries: deliveryRows(log.deliveries, mayManage && webhook.status === 'active'),
      next: log.cursor ? `/dashboard/webhooks/${webhook.id}?cursor=${encodeURIComponent(log.cursor)}` : null,
    });
  }
}

/** Days a subscription's deliveries chart covers, today included. */
const CHART_DAYS = 14;

/** A subscription's attempts per day, succeeded over failed. */
function deliveriesChart(perDay: AttemptCount[]) {
  const total = perDay.reduce((n, d) => n + d.succeeded + d.failed, 0);
  const failed = perDay.reduce((n, d) => n + d.failed, 0);
  return chartView({
    id: 'deliveries-chart',
    title: `Deliveries over the last ${CHART_DAYS} days`,
    summary:
      total === 0
        ? 'No delivery attempts in this period.'
        : `${total} attempt${total === 1 ? '' : 's'} in this period, ${failed} failed; per day, in UTC.`,
    kind: 'bar',
    stacked: true,
    unit: 'attempts',
    labels: perDay.map((d) => dayLabel(d.bucket)),
    series: [
      { label: 'Succeeded', values: perDay.map((d) => d.succeeded), tone: 'good' },
      { label: 'Failed', values: perDay.map((d) => d.failed), tone: 'bad' },
    ],
  });
}

/** The path of a subscription's page. */
const webhookPath = (webhookId: string): string => `/dashboard/webhooks/${encodeURIComponent(webhookId)}`;

/** The webhook form's fields as posted: one name and url, any number of event types. */
function webhookFormOf(body: unknown): WebhookForm {
  return {
    name: (field(body, 'name') ?? '').trim(),
    url: (field(body, 'url') ?? '').trim(),
    eventTypes: fieldValues(body, 'event_types'),
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
