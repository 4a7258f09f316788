import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  attemptView,
  CommandContext,
  CreateWebhookCommand,
  DeleteWebhookCommand,
  GetWebhookQuery,
  ListWebhookDeliveriesQuery,
  ListWebhooksQuery,
  Principal,
  RecoverWebhookDeliveriesCommand,
  RotateWebhookSecretCommand,
  TestWebhookCommand,
  UpdateWebhookCommand,
} from '@app/application';
import { validationError, WEBHOOK_MESSAGES } from '@app/domain';
import { definedOnly } from '../http/defined-only';
import { Caller, Ctx } from '../http/request-context.decorator';
import { CreateWebhookDto, RecoverWebhookDto, UpdateWebhookDto } from './webhook.dto';

@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  async create(@Ctx() context: CommandContext, @Body() body: CreateWebhookDto) {
    const created = await this.commands.execute(new CreateWebhookCommand(context, { name: body.name, url: body.url, event_types: body.event_types }));
    return { ...created, message: 'Webhook created successfully. Store the secret now: it is not shown again.' };
  }

  @Get()
  list(@Caller() caller: Principal, @Query('cursor') cursor?: unknown) {
    return this.queries.execute(new ListWebhooksQuery(caller.workspaceId, single('cursor', cursor)));
  }

  @Get(':webhookId')
  get(@Caller() caller: Principal, @Param('webhookId') webhookId: string) {
    return this.queries.execute(new GetWebhookQuery(caller.workspaceId, webhookId));
  }

  @Patch(':webhookId')
  async update(@Ctx() context: CommandContext, @Param('webhookId') webhookId: string, @Body() body: UpdateWebhookDto) {
    const changes = definedOnly(body);
    if (Object.keys(changes).length === 0) throw validationError(WEBHOOK_MESSAGES.nothingToUpdate);
    await this.commands.execute(new UpdateWebhookCommand(context, webhookId, changes));
    return { message: 'Webhook updated successfully' };
  }

  @Delete(':webhookId')
  @HttpCode(204)
  async remove(@Ctx() context: CommandContext, @Param('webhookId') webhookId: string): Promise<void> {
    await this.commands.execute(new DeleteWebhookCommand(context, webhookId));
  }

  /** One signed `webhook.test` delivery, sent now; the answer says how it went. */
  @Post(':webhookId/test')
  @HttpCode(200)
  async test(@Ctx() context: CommandContext, @Param('webhookId') webhookId: string) {
    const attempt = await this.commands.execute(new TestWebhookCommand(context, webhookId));
    return { message: attempt.succeeded ? 'Test delivery succeeded' : 'Test delivery failed', delivery: attemptView(attempt) };
  }

  @Get(':webhookId/deliveries')
  deliveries(@Caller() caller: Principal, @Param('webhookId') webhookId: string, @Query('cursor') cursor?: unknown) {
    return this.queries.execute(new ListWebhookDeliveriesQuery(caller.workspaceId, webhookId, single('cursor', cursor)));
  }

  @Post(':webhookId/recover')
  @HttpCode(202)
  async recover(@Ctx() context: CommandContext, @Param('webhookId') webhookId: string, @Body() body: RecoverWebhookDto) {
    if (body.until !== undefined && body.until <= body.since) throw validationError('until must be after since');
    const { count } = await this.commands.execute(new RecoverWebhookDeliveriesCommand(context, webhookId, body.since, body.until));
    return { message: `${count} failed ${count === 1 ? 'delivery' : 'deliveries'} queued again`, count };
  }

  @Post(':webhookId/rotate-secret')
  @HttpCode(200)
  async rotateSecret(@Ctx() context: CommandContext, @Param('webhookId') webhookId: string) {
    const rotated = await this.commands.execute(new RotateWebhookSecretCommand(context, webhookId));
    return { ...rotated, message: 'Webhook secret rotated. Store the new secret now: it is not shown again.' };
  }
}

/** A query parameter given twice arrives as an array; this API takes each once. */
function single(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw validationError(`${name} must be given once`);
  return value;
}
