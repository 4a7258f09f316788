import { Controller, Get, Param, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AuditEntry,
  GetDeliveryOverviewQuery,
  GetProjectionStatusQuery,
  ListAuditEventsQuery,
  ListDeadLettersQuery,
  RebuildProjectionsCommand,
  RetryDeadLetterCommand,
  SkipDeadLetterCommand,
  VerifyReadModelsCommand,
} from '@app/application';
import { DASHBOARD_SECURITY_HEADERS, NO_STORE, seeOther } from '../dashboard/dashboard-http';
import { field } from '../dashboard/dashboard-pages';
import { timeView } from '../dashboard/dashboard-view-data';
import { Public } from '../http/auth';
import { Readiness, READY_MAX_LAG } from '../health/readiness';
import { ConsoleExceptionFilter } from './console-exception.filter';
import {
  deadLetterRows,
  deliveriesChart,
  eventsPerMinuteChart,
  lagChart,
  liveProjections,
  projectionRows,
} from './console-operations';
import { ConsoleApiKeyRefusal, consoleLayout, ConsolePages } from './console-pages';
import { ProjectionLagSampler } from './projection-lag-sampler';

/** The window of the events-per-minute chart, and the audit pages read for it at most (50 entries each). */
const EVENT_MINUTES = 30;
const EVENT_PAGES = 10;

const RETRY_NOTICE: Record<string, string> = {
  applied: 'Retried: the event was applied and the dead letter is gone.',
  failed: 'Retried: the projector failed again; the dead letter records the attempt and the new error.',
};

const REPLICA_NOTICE =
  'This process is an API replica (PROJECTIONS=external): it reads the projector’s checkpoints and dead letters. Rebuild, verify, retry and skip run on the projector only; here they are refused as the operator API refuses them.';

/**
 * The console's operations screens (docs/console.md): projections (status, live lag, rebuilds
 * with their progress, verification, dead letters), deliveries across workspaces, and the process
 * topology. Every figure comes from the application queries and commands the operator API uses,
 * so a replica answers (and refuses the projector's own actions) exactly as the API does.
 */
@ApiExcludeController()
@Public()
@UseFilters(ConsoleExceptionFilter)
@UseGuards(ConsoleApiKeyRefusal)
@Controller('console')
export class ConsoleOperationsController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly sampler: ProjectionLagSampler,
    private readonly readiness: Readiness,
  ) {}

  private async projectionState() {
    const [report, { dead_letters }] = await Promise.all([
      this.queries.execute(new GetProjectionStatusQuery()),
      this.queries.execute(new ListDeadLettersQuery()),
    ]);
    const rows = projectionRows(report.projections, dead_letters);
    const lag = lagChart(
      this.sampler.history(),
      report.projections.map((p) => p.name),
    );
    return { report, rows, lag, deadLetters: dead_letters };
  }

  @Get('projections')
  async projections(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Query('rebuild') rebuild?: unknown,
    @Query('retried') retried?: unknown,
    @Query('skipped') skipped?: unknown,
  ) {
    const { view } = await this.pages.signedIn(request);
    const { report, rows, lag, deadLetters } = await this.projectionState();
    const notice =
      typeof rebuild === 'string'
        ? `Rebuild started: ${rebuild}. Its progress shows below until it ends.`
        : typeof retried === 'string' && RETRY_NOTICE[retried]
          ? RETRY_NOTICE[retried]
          : skipped === '1'
            ? 'Skipped: the dead letter is gone without its event applied.'
            : null;
    await this.pages.page(reply, 200, 'projections', {
      ...consoleLayout('Projections', view, 'projections'),
      charts: true,
      role: report.role,
      replicaNotice: report.role === 'replica' ? REPLICA_NOTICE : null,
      projections: rows,
      lag,
      deadLetters: deadLetterRows(deadLetters),
      notice,
    });
  }

  /** What the Projections screen's script polls: the figures of the page, as JSON. */
  @Get('projections/live')
  async live(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.pages.signedIn(request);
    const { report, rows, lag } = await this.projectionState();
    void reply
      .code(200)
      .headers({ ...DASHBOARD_SECURITY_HEADERS, 'cache-control': NO_STORE })
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(liveProjections(report, rows, lag)));
  }

  /** Starts a rebuild of one projection (`name`) or of all (`name` empty), as POST /v1/admin/projections/rebuild. */
  @Post('projections/rebuild')
  async rebuild(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.pages.signedIn(request, { form: true, write: true });
    const name = field(request.body, 'name')?.trim() || undefined;
    const started = await this.commands.execute(new RebuildProjectionsCommand(name));
    seeOther(reply, `/console/projections?${new URLSearchParams({ rebuild: started.projections.join(', ') })}`);
  }

  /** Verifies the read models against a replay (auditors may, as on the operator API) and shows the differences. */
  @Post('projections/verify')
  async verify(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const { view } = await this.pages.signedIn(request, { form: true });
    const report = await this.commands.execute(new VerifyReadModelsCommand());
    await this.pages.page(reply, 200, 'verify', {
      ...consoleLayout('Verification', view, 'projections'),
      report,
      differences: report.differences.map((d) => ({
        ...d,
        expectedText: d.expected === undefined ? '—' : JSON.stringify(d.expected, null, 2),
        actualText: d.actual === undefined ? '—' : JSON.stringify(d.actual, null, 2),
      })),
    });
  }

  @Post('projections/dead-letters/:projection/:position/retry')
  async retry(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('projection') projection: string,
    @Param('position') position: string,
  ) {
    await this.pages.signedIn(request, { form: true, write: true });
    const { outcome } = await this.commands.execute(new RetryDeadLetterCommand(projection, position));
    seeOther(reply, `/console/projections?retried=${outcome}#dead-letters-title`);
  }

  /** Asks before skipping: a skipped event is never applied (a rebuild replays everything). */
  @Get('projections/dead-letters/:projection/:position/skip')
  async confirmSkip(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('projection') projection: string,
    @Param('position') position: string,
  ) {
    const { view } = await this.pages.signedIn(request, { write: true });
    const { dead_letters } = await this.queries.execute(new ListDeadLettersQuery(projection));
    const letter = deadLetterRows(dead_letters).find((d) => String(d.position) === position);
    if (!letter) return seeOther(reply, '/console/projections#dead-letters-title');
    await this.pages.page(reply, 200, 'dead-letter-skip', {
      ...consoleLayout('Skip a dead letter', view, 'projections'),
      letter,
    });
  }

  @Post('projections/dead-letters/:projection/:position/skip')
  async skip(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('projection') projection: string,
    @Param('position') position: string,
  ) {
    await this.pages.signedIn(request, { form: true, write: true });
    await this.commands.execute(new SkipDeadLetterCommand(projection, position));
    seeOther(reply, '/console/projections?skipped=1#dead-letters-title');
  }

  @Get('deliveries')
  async deliveries(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const { view } = await this.pages.signedIn(request);
    const overview = await this.queries.execute(new GetDeliveryOverviewQuery());
    await this.pages.page(reply, 200, 'deliveries', {
      ...consoleLayout('Deliveries', view, 'deliveries'),
      charts: true,
      backlog: overview.backlog,
      subscriptions: overview.subscriptions.map((s) => ({
        ...s,
        lastAttempt: s.last_attempt_at === null ? null : timeView(s.last_attempt_at),
        pausedAt: s.paused_at === null ? null : timeView(s.paused_at),
        reasonText:
          s.pause_reason === 'consecutive_failures'
            ? 'Too many consecutive failures'
            : s.pause_reason === 'gone'
              ? 'The receiver answered 410 Gone'
              : s.pause_reason === 'by_hand'
                ? 'Paused by hand'
                : null,
      })),
      chart: deliveriesChart(overview.attempts, overview.bucket_ms),
    });
  }

  @Get('topology')
  async topology(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const { view } = await this.pages.signedIn(request);
    const now = Date.now();
    const [ready, report, { dead_letters }, events] = await Promise.all([
      this.readiness.check(),
      this.queries.execute(new GetProjectionStatusQuery()),
      this.queries.execute(new ListDeadLettersQuery()),
      this.recentEvents(now - EVENT_MINUTES * 60_000),
    ]);
    await this.pages.page(reply, 200, 'topology', {
      ...consoleLayout('Topology', view, 'topology'),
      charts: true,
      ready,
      readyMaxLag: READY_MAX_LAG,
      checks: Object.entries(ready.checks).map(([name, value]) => ({ name, value })),
      projections: projectionRows(report.projections, dead_letters),
      events: eventsPerMinuteChart(events.entries, now, EVENT_MINUTES, events.capped),
    });
  }

  /** The newest audit entries since `from`, across workspaces: at most EVENT_PAGES pages. */
  private async recentEvents(from: number): Promise<{ entries: AuditEntry[]; capped: boolean }> {
    const entries: AuditEntry[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < EVENT_PAGES; page++) {
      const result = await this.queries.execute(new ListAuditEventsQuery({ order: 'desc', from, cursor }));
      entries.push(...result.events);
      if (!result.cursor) return { entries, capped: false };
      cursor = result.cursor;
    }
    return { entries, capped: true };
  }
}
