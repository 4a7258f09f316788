import { Controller, Get, HttpException, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { EVENT_STORE, EventStore, ProjectionMaintenance, READ_MODEL_STORE, ReadModelStore } from '@app/application';
import { Public } from '../http/auth';
import { HealthSchema, NotReadySchema, ReadySchema } from '../openapi/schemas/operations.schema';

/**
 * A projection more than this many events behind the store is "not ready". Counted in events on
 * every store (EventStoreDB's positions are log bytes: a bound in positions would be about one
 * event there), by reading at most this many events past the lowest stored checkpoint.
 */
export const READY_MAX_LAG = 1000;

/** The probes an orchestrator calls: liveness and readiness, side by side, without authentication. */
@ApiTags('Observability')
@Controller()
export class HealthController {
  constructor(
    private readonly maintenance: ProjectionMaintenance,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
  ) {}

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

  /**
   * Readiness: both stores answer and every projection is caught up within READY_MAX_LAG. A
   * projection holding dead letters is degraded: still ready (it serves everything else and keeps
   * up), but named under `checks.degraded` so that someone retries or skips them.
   */
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
    const checks: Record<string, string> = {};
    let ready = true;
    try {
      await this.events.headPosition();
      checks.event_store = 'ok';
    } catch {
      checks.event_store = 'unreachable';
      ready = false;
    }
    try {
      await this.read.getCheckpoints();
      checks.read_models = 'ok';
    } catch {
      checks.read_models = 'unreachable';
      ready = false;
    }
    if (ready) {
      const behind = (await this.maintenance.status({ lagCount: READY_MAX_LAG })).filter((p) => p.lagCapped);
      checks.projections =
        behind.length === 0
          ? 'ok'
          : `behind: ${behind.map((p) => `${p.name} (more than ${READY_MAX_LAG} events)`).join(', ')}`;
      ready = behind.length === 0;
      const degraded = Object.entries(await this.maintenance.deadLetterCounts()).filter(([, n]) => n > 0);
      if (degraded.length > 0)
        checks.degraded = `dead letters: ${degraded.map(([name, n]) => `${name} (${n})`).join(', ')}`;
    }
    const role = this.maintenance.role;
    if (!ready) throw new HttpException({ message: 'Not ready', status: 'not_ready', role, checks }, 503);
    return { status: 'ready', role, checks };
  }
}
