import { Inject, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import {
  ALL_PROJECTORS,
  CheckpointPoller,
  checkReadModelsSource,
  EVENT_STORE,
  EventStoreMismatchError,
  EventSourcedRepository,
  EventStore,
  HeldProjectorLock,
  PersonalDataVault,
  ProjectionEngine,
  ProjectionMaintenance,
  READ_MODEL_STORE,
  READ_YOUR_WRITES,
  ReadModelStore,
  ReadYourWrites,
  REPAIR_KINDS,
  SlotReconciler,
  SNAPSHOT_STORE,
  SnapshotStore,
  SUBJECT_KEY_STORE,
  SubjectKeyStore,
} from '@app/application';
import { acquireProjectorLock } from '../adapters';
import { type AppConfig, ConfigError } from '../config';
import { ServiceMetrics } from '../observability/metrics';
import { APP_CONFIG } from '../tokens';
import { waitAtMost } from '../wait-at-most';

/** At shutdown, how long the commands under way get to end before the event store closes. */
const COMMANDS_GRACE_MS = 10_000;
/** How long a projector's start waits for its read models to catch up with the store. */
const CATCH_UP_AT_START_MS = 120_000;
const RECONCILE_EVERY_MS = 10_000;

/** Read models of another event store are the operator's configuration to fix: said at start, exit code 2. */
const asConfigError = (error: unknown): never => {
  throw error instanceof EventStoreMismatchError ? new ConfigError(error.message) : error;
};

/**
 * The service's life around its requests, in three steps NestJS's hooks call:
 *
 * - start (before the first request): a replica prepares its read-model collections; the projector
 *   takes the read models' projector lock (and ends the process should it lose it), drops what an
 *   interrupted rebuild left, starts the projections and waits for them to catch up, then sweeps
 *   half-done slot writes every 10 s. Both refuse read models projected from another event store
 *   (a ConfigError: exit code 2);
 * - drain (after the server has closed): the sweeps stop and the commands under way end;
 * - stop: the projections stop after their batch, then the stores close and the lock is let go.
 *
 * The webhook dispatcher stops before this (webhooks.module.ts), while the stores are open.
 */
export class Lifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Lifecycle');
  private reconciling: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> = Promise.resolve();
  /** Held while this process is the projector of the read models (adapters.ts). */
  private projectorLock: HeldProjectorLock | null = null;

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
    private readonly metrics: ServiceMetrics,
  ) {
    // An erasure made by another process reaches this one through the event it recorded.
    engine.onApplied((events) => {
      for (const event of events) {
        if (event.type === 'workspace.member_erased') vault.forget((event.data as { member_id: string }).member_id);
      }
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.drain();
    await this.stop();
  }

  private async start(): Promise<void> {
    if (this.config.projections === 'external') {
      // The projector worker owns the read models; this process only reads them.
      await this.read.init(ALL_PROJECTORS.flatMap((p) => p.collections));
      // Its waits compare this store's positions with the checkpoints: they must be this store's.
      await checkReadModelsSource(this.events, this.read, { stamp: false }).catch(asConfigError);
      return;
    }
    // One projector per set of read models: before anything here writes them.
    this.projectorLock = await acquireProjectorLock(this.config, this.logger, (reason) =>
      this.lostProjectorLock(reason),
    );
    // A rebuild or verification cut short by a crash left fresh collections beside the live ones.
    for (const leftover of await this.maintenance.cleanUpInterrupted()) {
      this.logger.warn(
        `Dropped ${leftover}: what a rebuild or verification interrupted by a stop left behind (run it again)`,
      );
    }
    await this.engine.start().catch(asConfigError);
    // Serve nothing stale after a restart: the read models first catch up with the store.
    const head = await this.events.headPosition();
    if (!(await this.engine.waitFor(head, {}, CATCH_UP_AT_START_MS)))
      this.logger.warn('Projections still catching up at start');
    // The process that keeps the read models also repairs writes that stopped part way (a no-op
    // on the embedded store, whose multi-stream writes are atomic).
    this.reconciling = setInterval(() => {
      this.sweeping = this.reconciler
        .sweep()
        .then((done) => {
          for (const kind of REPAIR_KINDS) {
            const { done: repaired, failed } = done.repairs[kind];
            if (repaired > 0) this.metrics.slotRepairs.inc({ kind, outcome: 'done' }, repaired);
            if (failed > 0) this.metrics.slotRepairs.inc({ kind, outcome: 'failed' }, failed);
          }
          if (done.abandoned + done.released + done.jobsDeleted > 0)
            this.logger.warn(`Slot reconciler repaired ${JSON.stringify(done)}`);
        })
        .catch((error) => this.logger.error('Slot reconciler sweep failed; next sweep in 10 s', error));
    }, RECONCILE_EVERY_MS);
    this.reconciling.unref();
  }

  /**
   * Another process may be the projector from now on: this one stops projecting at once and ends
   * (exit code 1), so that its orchestrator starts it again, as a projector that waits for the
   * lease or is refused at start.
   */
  private lostProjectorLock(reason: string): void {
    this.logger.error(`Lost the projector lock (${reason}): stopping the projections and the process`);
    this.projectorLock = null;
    void this.engine.stop();
    process.exitCode = 1;
    process.kill(process.pid, 'SIGTERM');
  }

  /**
   * The server's close waits for the requests of open connections only: a command whose client
   * went away is still being decided or written. It ends on an open store, or (a store that does
   * not answer) the shutdown goes on after the grace and says so.
   */
  private async drain(): Promise<void> {
    if (this.reconciling) clearInterval(this.reconciling);
    await this.sweeping;
    if (this.readYourWrites instanceof CheckpointPoller) this.readYourWrites.stop();
    if (!(await waitAtMost(this.repository.settled(), COMMANDS_GRACE_MS)))
      this.logger.warn(
        `Commands still under way ${COMMANDS_GRACE_MS / 1000} s into the shutdown: closing the event store under them`,
      );
  }

  private async stop(): Promise<void> {
    await this.engine.stop();
    await this.events.close();
    await this.read.close();
    await this.keys.close();
    await this.snapshots.close();
    await this.projectorLock
      ?.release()
      .catch((error) => this.logger.warn(`Projector lock not released (it runs out by itself): ${error}`));
  }
}
