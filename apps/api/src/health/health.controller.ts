import { Controller, Get, HttpException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../http/auth';
import { HealthSchema, NotReadySchema, ReadySchema } from '../openapi/schemas/operations.schema';
import { Readiness, READY_MAX_LAG } from './readiness';

/** The probes an orchestrator calls: liveness and readiness, side by side, without authentication. */
@ApiTags('Observability')
@Controller()
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  /** Liveness: answers once the service accepts requests. */
  @Get('health')
  @Public()
  @ApiOperation({
    summary: 'Liveness',
    description: 'Answers 200 once the service accepts requests. No authentication.',
  })
  @ApiOkResponse({ type: HealthSchema })
  health() {
    return { status: 'ok' };
  }

  /** Readiness (readiness.ts): both stores answer and every projection is caught up within READY_MAX_LAG. */
  @Get('ready')
  @Public()
  @ApiOperation({
    // Clients generated from the document name their call by this id: it stays as published,
    // whichever controller serves the route.
    operationId: 'Observability_ready',
    summary: 'Readiness',
    description: `Both stores answer and every projection is within ${READY_MAX_LAG} events of the store head, judged from the checkpoints the projector stored with the read models (the same on the projector and on every replica). A projection with parked events (dead letters) is named in \`checks.degraded\` but does not make the service unready. No authentication.`,
  })
  @ApiOkResponse({ type: ReadySchema })
  @ApiServiceUnavailableResponse({ type: NotReadySchema, description: 'Not ready: `checks` names the failing check' })
  async ready() {
    const { ready, role, checks } = await this.readiness.check();
    if (!ready) throw new HttpException({ message: 'Not ready', status: 'not_ready', role, checks }, 503);
    return { status: 'ready', role, checks };
  }
}
