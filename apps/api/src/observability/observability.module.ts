import { Controller, Get, Header, HttpException, Inject, Module, OnModuleInit } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import {
  EVENT_STORE,
  EventStore,
  ProjectionEngine,
  ProjectionMaintenance,
  READ_MODEL_STORE,
  ReadModelStore,
} from '@app/application';
import { Public } from '../http/auth.guard';
import { NotReadySchema, ReadySchema } from '../openapi/schemas/operations.schema';
import { ServiceMetrics } from './metrics';

/**
 * A projection more than this many events behind the store is "not ready". Counted in events on
 * every store (EventStoreDB's positions are log bytes: a bound in positions would be about one
 * event there), by reading at most this many events past the lowest stored checkpoint.
 */
export const READY_MAX_LAG = 1000;

@ApiTags('Observability')
@Controller()
export class ObservabilityController {
  constructor(
    private readonly metrics: ServiceMetrics,
    private readonly maintenance: ProjectionMaintenance,
    private readonly engine: ProjectionEngine,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
  ) {}

  /**
   * Readiness: both stores answer and every projection is caught up within READY_MAX_LAG. A
   * projection holding dead letters is degraded: still ready (it serves everything else and keeps
   * up), but named under `checks.degraded` so that someone retries or skips them.
   */
  @Get('ready')
  @Public()
  @ApiOperation({
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
      const degraded = Object.entries(await this.deadLetterCounts()).filter(([, n]) => n > 0);
      if (degraded.length > 0)
        checks.degraded = `dead letters: ${degraded.map(([name, n]) => `${name} (${n})`).join(', ')}`;
    }
    const role = this.maintenance.role;
    if (!ready) throw new HttpException({ message: 'Not ready', status: 'not_ready', role, checks }, 503);
    return { status: 'ready', role, checks };
  }

  @Get('metrics')
  @Public()
  @ApiOperation({
    summary: 'Prometheus metrics',
    description:
      'Request duration by route and status, event append latency, projection lag, webhook delivery outcomes, process metrics. No authentication: expose it to the scraper only.',
  })
  @ApiOkResponse({
    description: 'Prometheus text exposition format 0.0.4',
    content: {
      'text/plain; version=0.0.4': {
        schema: { type: 'string' },
        example: 'http_request_duration_seconds_bucket{le="0.005",method="GET",route="/v1/projects",status="200"} 42\n',
      },
    },
  })
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  async metricsText() {
    for (const p of await this.maintenance.status()) {
      this.metrics.projectionLag.set({ projection: p.name }, Math.max(0, p.head - p.checkpoint));
      this.metrics.projectionLagEvents.set({ projection: p.name }, p.lag);
    }
    for (const [projection, n] of Object.entries(await this.deadLetterCounts()))
      this.metrics.deadLetters.set({ projection }, n);
    return this.metrics.registry.metrics();
  }

  /** From the read store, so a replica that does not run the projections reports them too. */
  private async deadLetterCounts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = Object.fromEntries(this.engine.projectorNames().map((name) => [name, 0]));
    for (const letter of await this.read.listDeadLetters())
      counts[letter.projection] = (counts[letter.projection] ?? 0) + 1;
    return counts;
  }
}

/** The observability routes; the request log and metrics hooks are in the HTTP pipeline (http/pipeline.ts). */
@Module({
  controllers: [ObservabilityController],
})
export class ObservabilityModule implements OnModuleInit {
  constructor(
    private readonly metrics: ServiceMetrics,
    private readonly engine: ProjectionEngine,
  ) {}

  onModuleInit() {
    this.engine.onParked((letter) => this.metrics.deadLettersParked.inc({ projection: letter.projection }));
  }
}
