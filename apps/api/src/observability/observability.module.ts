import { Controller, Get, Header, Module, OnModuleInit } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ProjectionEngine, ProjectionMaintenance } from '@app/application';
import { Public } from '../http/auth';
import { ServiceMetrics } from './metrics';

/** Prometheus metrics; the probes /health and /ready are in health/health.controller.ts. */
@ApiTags('Observability')
@Controller()
export class ObservabilityController {
  constructor(
    private readonly metrics: ServiceMetrics,
    private readonly maintenance: ProjectionMaintenance,
  ) {}

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
    for (const [projection, n] of Object.entries(await this.maintenance.deadLetterCounts()))
      this.metrics.deadLetters.set({ projection }, n);
    return this.metrics.registry.metrics();
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
