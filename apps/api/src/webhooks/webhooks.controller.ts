import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
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
  WEBHOOK_PAUSED_CANNOT_RECOVER,
} from '@app/application';
import { RECOVER_MESSAGES, validationError, WEBHOOK_ANSWERS, WEBHOOK_MESSAGES, WEBHOOK_NOT_FOUND } from '@app/domain';
import { definedOnly } from '../http/defined-only';
import { singleQueryValue } from '../http/query-params';
import { Caller, Ctx } from '../http/auth';
import { ApiCursorQuery, ApiErrors, ApiIdParam, ApiKeyAuth } from '../openapi/decorators';
import { EXAMPLE, MessageBody } from '../openapi/schemas/common.schema';
import {
  CreatedWebhookSchema,
  DeliveryAttemptListSchema,
  RecoverResultSchema,
  RotatedSecretSchema,
  TestDeliveryResultSchema,
  WebhookListSchema,
  WebhookSchema,
} from '../openapi/schemas/webhooks.schema';
import { CreateWebhookDto } from './create-webhook/create-webhook.dto';
import { RecoverWebhookDto } from './recover-webhook/recover-webhook.dto';
import { UpdateWebhookDto } from './update-webhook/update-webhook.dto';

@ApiTags('Webhooks')
@ApiKeyAuth()
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a webhook subscription',
    description: 'The answer carries the signing secret: the only time it is shown.',
  })
  @ApiCreatedResponse({ type: CreatedWebhookSchema })
  @ApiErrors({
    400: [
      WEBHOOK_MESSAGES.nameRequired,
      WEBHOOK_MESSAGES.nameLength,
      WEBHOOK_MESSAGES.urlRequired,
      WEBHOOK_MESSAGES.urlHttps,
      WEBHOOK_MESSAGES.urlNotPublic,
      WEBHOOK_MESSAGES.eventTypesRequired,
      'Invalid event type: job_type.updated',
    ],
  })
  async create(@Ctx() context: CommandContext, @Body() body: CreateWebhookDto) {
    const created = await this.commands.execute(
      new CreateWebhookCommand(context, { name: body.name, url: body.url, event_types: body.event_types }),
    );
    return { ...created, message: WEBHOOK_ANSWERS.created };
  }

  @Get()
  @ApiOperation({ summary: 'List webhook subscriptions', description: 'Oldest first, 50 a page; never a secret.' })
  @ApiCursorQuery()
  @ApiOkResponse({ type: WebhookListSchema })
  @ApiErrors({ 400: 'cursor is invalid' })
  list(@Caller() caller: Principal, @Query('cursor') cursor?: unknown) {
    return this.queries.execute(new ListWebhooksQuery(caller.workspaceId, singleQueryValue('cursor', cursor)));
  }

  @Get(':webhookId')
  @ApiOperation({ summary: 'Get a webhook subscription' })
  @ApiIdParam('webhookId', 'Webhook id', EXAMPLE.webhookId)
  @ApiOkResponse({ type: WebhookSchema })
  @ApiErrors({ 404: WEBHOOK_NOT_FOUND })
  get(@Caller() caller: Principal, @Param('webhookId') webhookId: string) {
    return this.queries.execute(new GetWebhookQuery(caller.workspaceId, webhookId));
  }

  @Patch(':webhookId')
  @ApiOperation({
    summary: 'Update a webhook subscription',
    description: 'At least one field; `status: active` re-activates it and resets `failure_count`.',
  })
  @ApiIdParam('webhookId', 'Webhook id', EXAMPLE.webhookId)
  @ApiOkResponse({ type: MessageBody, example: { message: WEBHOOK_ANSWERS.updated } })
  @ApiErrors({
    400: [
      WEBHOOK_MESSAGES.nameType,
      WEBHOOK_MESSAGES.nameLength,
      WEBHOOK_MESSAGES.urlUpdate,
      WEBHOOK_MESSAGES.eventTypesUpdate,
      'Invalid event type: job_type.updated',
      WEBHOOK_MESSAGES.status,
      WEBHOOK_MESSAGES.nothingToUpdate,
    ],
    404: WEBHOOK_NOT_FOUND,
  })
  async update(@Ctx() context: CommandContext, @Param('webhookId') webhookId: string, @Body() body: UpdateWebhookDto) {
    const changes = definedOnly(body);
    if (Object.keys(changes).length === 0) throw validationError(WEBHOOK_MESSAGES.nothingToUpdate);
    await this.commands.execute(new UpdateWebhookCommand(context, webhookId, changes));
    return { message: WEBHOOK_ANSWERS.updated };
  }

  @Delete(':webhookId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a webhook subscription',
    description: 'Its queued deliveries and attempt log go with it.',
  })
  @ApiIdParam('webhookId', 'Webhook id', EXAMPLE.webhookId)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors({ 404: WEBHOOK_NOT_FOUND })
  async remove(@Ctx() context: CommandContext, @Param('webhookId') webhookId: string): Promise<void> {
    await this.commands.execute(new DeleteWebhookCommand(context, webhookId));
  }

  /** One signed `webhook.test` delivery, sent now; the answer says how it went. */
  @Post(':webhookId/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a test delivery now',
    description: 'One signed `webhook.test` delivery, also while paused; it never changes `failure_count`.',
  })
  @ApiIdParam('webhookId', 'Webhook id', EXAMPLE.webhookId)
  @ApiOkResponse({ type: TestDeliveryResultSchema })
  @ApiErrors({ 404: WEBHOOK_NOT_FOUND })
  async test(@Ctx() context: CommandContext, @Param('webhookId') webhookId: string) {
    const attempt = await this.commands.execute(new TestWebhookCommand(context, webhookId));
    return {
      message: attempt.succeeded ? WEBHOOK_ANSWERS.testSucceeded : WEBHOOK_ANSWERS.testFailed,
      delivery: attemptView(attempt),
    };
  }

  @Get(':webhookId/deliveries')
  @ApiOperation({ summary: 'The delivery attempt log', description: 'Newest first, 50 a page.' })
  @ApiIdParam('webhookId', 'Webhook id', EXAMPLE.webhookId)
  @ApiCursorQuery()
  @ApiOkResponse({ type: DeliveryAttemptListSchema })
  @ApiErrors({ 400: 'cursor is invalid', 404: WEBHOOK_NOT_FOUND })
  deliveries(@Caller() caller: Principal, @Param('webhookId') webhookId: string, @Query('cursor') cursor?: unknown) {
    return this.queries.execute(
      new ListWebhookDeliveriesQuery(caller.workspaceId, webhookId, singleQueryValue('cursor', cursor)),
    );
  }

  @Post(':webhookId/recover')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Queue failed deliveries again',
    description: 'Every failed delivery created in [since, until) is retried with a fresh schedule.',
  })
  @ApiIdParam('webhookId', 'Webhook id', EXAMPLE.webhookId)
  @ApiAcceptedResponse({ type: RecoverResultSchema })
  @ApiErrors({
    400: [RECOVER_MESSAGES.sinceRequired, RECOVER_MESSAGES.sinceTimestamp, RECOVER_MESSAGES.untilAfterSince],
    404: WEBHOOK_NOT_FOUND,
    409: WEBHOOK_PAUSED_CANNOT_RECOVER,
  })
  async recover(
    @Ctx() context: CommandContext,
    @Param('webhookId') webhookId: string,
    @Body() body: RecoverWebhookDto,
  ) {
    if (body.until !== undefined && body.until <= body.since) throw validationError(RECOVER_MESSAGES.untilAfterSince);
    const { count } = await this.commands.execute(
      new RecoverWebhookDeliveriesCommand(context, webhookId, body.since, body.until),
    );
    return { message: `${count} failed ${count === 1 ? 'delivery' : 'deliveries'} queued again`, count };
  }

  @Post(':webhookId/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description: 'Returns the new secret (once); for 24 hours deliveries are signed with both.',
  })
  @ApiIdParam('webhookId', 'Webhook id', EXAMPLE.webhookId)
  @ApiOkResponse({ type: RotatedSecretSchema })
  @ApiErrors({ 404: WEBHOOK_NOT_FOUND })
  async rotateSecret(@Ctx() context: CommandContext, @Param('webhookId') webhookId: string) {
    const rotated = await this.commands.execute(new RotateWebhookSecretCommand(context, webhookId));
    return { ...rotated, message: WEBHOOK_ANSWERS.secretRotated };
  }
}
