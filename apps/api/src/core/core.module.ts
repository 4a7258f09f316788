import {
  DynamicModule,
  Global,
  Inject,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import {
  ALL_PROJECTORS,
  ApiKeyAuthenticator,
  CheckpointPoller,
  CLOCK,
  Clock,
  EVENT_STORE,
  EventSourcedRepository,
  EventStore,
  ID_GENERATOR,
  PersonalDataVault,
  PROCESS_HOST,
  ProjectionEngine,
  ProjectionMaintenance,
  READ_MODEL_STORE,
  READ_YOUR_WRITES,
  ReadModelStore,
  ReadYourWrites,
  SlotReconciler,
  SNAPSHOT_STORE,
  SnapshotStore,
  SUBJECT_KEY_STORE,
  SubjectKeyStore,
  timeOrderedIds,
  systemClock,
  UpcastingEventStore,
} from '@app/application';
import { eventSchemas } from '@app/domain';
import type { AppConfig } from '../config';
import { instrumentEventStore } from '../observability/instrumented-event-store';
import { nodeProcessHost } from './node-process-host';
import { ServiceMetrics } from '../observability/metrics';
import {
  acquireProjectorLock,
  openEventStore,
  openReadModelStore,
  openSnapshotStore,
  openSubjectKeyStore,
} from '../adapters';
import { APP_CONFIG } from '../tokens';
import { waitAtMost } from '../wait-at-most';

/** Starts the projections before the first request and closes the stores after the last. */
class Lifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Lifecycle');
  private reconciling: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> = Promise.resolve();
  /** Held while this process is the projector of the embedded read models (adapters.ts). */
  private projectorLock: { release(): void } | null = null;

  constructor(
    private readonly engine: ProjectionEngine,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(SUBJECT_KEY_STORE) private readonly keys: SubjectKeyStore,
    @Inject(SNAPSHOT_STORE) private readonly snapshots: SnapshotStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reconciler: SlotReconciler,
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
    private readonly maintenance: ProjectionMaintenance,
    vault: PersonalDataVault,
    private readonly repository: EventSourcedRepository,
  ) {
    // An erasure made by another process reaches this one through the event it recorded.
    engine.onApplied((events) => {
      for (const event of events) {
        if (event.type === 'workspace.member_erased') vault.forget((event.data as { member_id: string }).member_id);
      }
    });
  }

  async onApplicationBootstrap() {
    if (this.config.projections === 'external') {
      // The projector worker owns the read models; this process only reads them.
      await this.read.init(ALL_PROJECTORS.flatMap((p) => p.collections));
      return;
    }
    // One projector per DATA_DIR: before anything here writes the read models.
    this.projectorLock = await acquireProjectorLock(this.config, this.logger);
    // A rebuild or verification cut short by a crash left fresh collections beside the live ones.
    for (const leftover of await this.maintenance.cleanUpInterrupted()) {
      this.logger.warn(
        `Dropped ${leftover}: what a rebuild or verification interrupted by a stop left behind (run it again)`,
      );
    }
    await this.engine.start();
    // Serve nothing stale after a restart: the read models first catch up with the store.
    const head = await this.events.headPosition();
    if (!(await this.engine.waitFor(head, {}, 120_000))) this.logger.warn('Projections still catching up at start');
    // The process that keeps the read models also repairs writes that stopped part way (a no-op
    // on the embedded store, whose multi-stream writes are atomic).
    this.reconciling = setInterval(() => {
      this.sweeping = this.reconciler
        .sweep()
        .then((done) => {
          if (done.abandoned + done.released + done.jobsDeleted > 0)
            this.logger.warn(`Slot reconciler repaired ${JSON.stringify(done)}`);
        })
        .catch((error) => this.logger.error('Slot reconciler sweep failed; next sweep in 10 s', error));
    }, 10_000);
    this.reconciling.unref();
  }

  /**
   * The server's close waits for the requests of open connections only: a command whose client
   * went away is still being decided or written. It ends on an open store, or (a store that does
   * not answer) the shutdown goes on after the grace and says so.
   */
  private async commandsSettled(): Promise<void> {
    if (!(await waitAtMost(this.repository.settled(), COMMANDS_GRACE_MS)))
      this.logger.warn(
        `Commands still under way ${COMMANDS_GRACE_MS / 1000} s into the shutdown: closing the event store under them`,
      );
  }

  async onApplicationShutdown() {
    if (this.reconciling) clearInterval(this.reconciling);
    await this.sweeping;
    if (this.readYourWrites instanceof CheckpointPoller) this.readYourWrites.stop();
    await this.commandsSettled();
    await this.engine.stop();
    await this.events.close();
    await this.read.close();
    await this.keys.close();
    await this.snapshots.close();
    this.projectorLock?.release();
  }
}

/** At shutdown, how long the commands under way get to end before the event store closes. */
const COMMANDS_GRACE_MS = 10_000;

const SHARED = [
  APP_CONFIG,
  ServiceMetrics,
  EVENT_STORE,
  READ_MODEL_STORE,
  CLOCK,
  ID_GENERATOR,
  PROCESS_HOST,
  ProjectionEngine,
  ProjectionMaintenance,
  READ_YOUR_WRITES,
  EventSourcedRepository,
  ApiKeyAuthenticator,
  SUBJECT_KEY_STORE,
  PersonalDataVault,
];

/**
 * The ports bound to their adapters, shared by every feature module (global): configuration,
 * event store, read models, clock, ids, the projection engine and the aggregate repository.
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        ServiceMetrics,
        {
          provide: EVENT_STORE,
          // Every read of the app goes through the upcasting seam: events in their current shape (docs/events.md).
          useFactory: async (metrics: ServiceMetrics) =>
            new UpcastingEventStore(instrumentEventStore(await openEventStore(config), metrics), eventSchemas, {
              onUnknownType: (type) => metrics.unknownEventTypes.inc({ type }),
              logger: new Logger('Events'),
            }),
          inject: [ServiceMetrics],
        },
        { provide: READ_MODEL_STORE, useFactory: () => openReadModelStore(config) },
        { provide: SUBJECT_KEY_STORE, useFactory: () => openSubjectKeyStore(config) },
        { provide: SNAPSHOT_STORE, useFactory: () => openSnapshotStore(config) },
        PersonalDataVault,
        { provide: CLOCK, useValue: systemClock },
        { provide: ID_GENERATOR, useValue: timeOrderedIds },
        { provide: PROCESS_HOST, useValue: nodeProcessHost },
        {
          provide: ProjectionEngine,
          useFactory: (events: EventStore, read: ReadModelStore) =>
            new ProjectionEngine(events, read, ALL_PROJECTORS, new Logger('Projections'), {
              readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
            }),
          inject: [EVENT_STORE, READ_MODEL_STORE],
        },
        {
          provide: READ_YOUR_WRITES,
          useFactory: (engine: ProjectionEngine, read: ReadModelStore) =>
            config.projections === 'external'
              ? new CheckpointPoller(
                  read,
                  ALL_PROJECTORS.map((p) => p.name),
                  {
                    intervalMs: 5,
                    timeoutMs: config.readYourWritesTimeoutMs,
                  },
                )
              : engine,
          inject: [ProjectionEngine, READ_MODEL_STORE],
        },
        {
          provide: ProjectionMaintenance,
          useFactory: (engine: ProjectionEngine, events: EventStore, read: ReadModelStore) =>
            new ProjectionMaintenance(engine, events, read, {
              role: config.projections === 'external' ? 'replica' : 'projector',
            }),
          inject: [ProjectionEngine, EVENT_STORE, READ_MODEL_STORE],
        },
        {
          provide: EventSourcedRepository,
          useFactory: (events: EventStore, clock: Clock, readModels: ReadYourWrites, snapshots: SnapshotStore) =>
            new EventSourcedRepository(events, clock, readModels, snapshots, new Logger('Aggregates')),
          inject: [EVENT_STORE, CLOCK, READ_YOUR_WRITES, SNAPSHOT_STORE],
        },
        ApiKeyAuthenticator,
        {
          provide: SlotReconciler,
          useFactory: (repository: EventSourcedRepository, read: ReadModelStore, clock: Clock) =>
            new SlotReconciler(repository, read, clock),
          inject: [EventSourcedRepository, READ_MODEL_STORE, CLOCK],
        },
        Lifecycle,
      ],
      exports: SHARED,
    };
  }
}
