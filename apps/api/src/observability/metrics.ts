import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The service's Prometheus metrics, in one registry per application instance (tests start
 * several in one process). Names follow Prometheus conventions: base units, `_total` counters.
 */
export class ServiceMetrics {
  readonly registry = new Registry();

  /** Observed on every request (observability/request-log.ts). */
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route template, method and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  /** Observed on every append (observability/instrumented-event-store.ts). */
  readonly appendDuration = new Histogram({
    name: 'event_store_append_duration_seconds',
    help: 'Time from an append request to its durable acknowledgement (group commit included); outcome ok, conflict or error',
    labelNames: ['outcome'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });

  readonly projectionLag = new Gauge({
    name: 'projection_lag_positions',
    help: 'Store head minus the stored checkpoint, per projection (events on SQLite, log bytes on EventStoreDB)',
    labelNames: ['projection'] as const,
    registers: [this.registry],
  });

  readonly projectionLagEvents = new Gauge({
    name: 'projection_lag_events',
    help: 'Events recorded but not yet applied, per projection (counted up to 10,000), from the checkpoints the projector stored',
    labelNames: ['projection'] as const,
    registers: [this.registry],
  });

  readonly deadLetters = new Gauge({
    name: 'projection_dead_letters',
    help: 'Events currently parked (dead letters) per projection: the projection is degraded while above 0',
    labelNames: ['projection'] as const,
    registers: [this.registry],
  });

  readonly deadLettersParked = new Counter({
    name: 'projection_dead_letters_parked_total',
    help: 'Events a projector threw on and the projection parked, per projection',
    labelNames: ['projection'] as const,
    registers: [this.registry],
  });

  readonly readYourWritesTimeouts = new Counter({
    name: 'read_your_writes_timeouts_total',
    help: 'Writes answered before a read model serving them showed them (X-Read-Consistency: pending), by route and projection',
    labelNames: ['route', 'projection'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly unknownEventTypes = new Counter({
    name: 'events_unknown_type_total',
    help: 'Events of a type this release does not know, read from the event store (each read counts); aggregates and projections ignore them',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });

  /** Counted after each sweep of the slot reconciler (core/lifecycle.ts); none on the embedded store. */
  readonly slotRepairs = new Counter({
    name: 'slot_reconciler_repairs_total',
    help: 'Repairs of writes that stopped part way on EventStoreDB, by kind (abandoned_creation, unfinished_deletion, late_job) and outcome (done, failed)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}

/** Outcome label of one delivery attempt, from what the transport saw. */
export function deliveryOutcome(
  response: { kind: 'response'; status: number } | { kind: 'error'; blocked: boolean; aborted: boolean },
) {
  if (response.kind === 'response') {
    if (response.status >= 200 && response.status < 300) return 'delivered';
    if (response.status === 410) return 'gone';
    if (response.status === 429 || response.status === 503) return 'throttled';
    return 'failed_status';
  }
  if (response.blocked) return 'blocked';
  return response.aborted ? 'aborted' : 'network_error';
}
