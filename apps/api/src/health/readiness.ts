import { Inject, Injectable } from '@nestjs/common';
import {
  EVENT_STORE,
  EventStore,
  ProjectionMaintenance,
  ProjectionRole,
  READ_MODEL_STORE,
  ReadModelStore,
} from '@app/application';

/**
 * A projection more than this many events behind the store is "not ready". Counted in events on
 * every store (EventStoreDB's positions are log bytes: a bound in positions would be about one
 * event there), by reading at most this many events past the lowest stored checkpoint.
 */
export const READY_MAX_LAG = 1000;

export interface ReadinessReport {
  ready: boolean;
  role: ProjectionRole;
  checks: Record<string, string>;
}

/**
 * What `/ready` answers (and the console's Topology screen shows): both stores answer and every
 * projection is caught up within READY_MAX_LAG. A projection holding dead letters is degraded:
 * still ready (it serves everything else and keeps up), but named under `checks.degraded` so
 * that someone retries or skips them.
 */
@Injectable()
export class Readiness {
  constructor(
    private readonly maintenance: ProjectionMaintenance,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
  ) {}

  async check(): Promise<ReadinessReport> {
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
    return { ready, role: this.maintenance.role, checks };
  }
}
