import {
  BeforeApplicationShutdown,
  Inject,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import {
  EVENT_STORE,
  EventStore,
  Ledger,
  LEDGER_STORE,
  LedgerSourceMismatchError,
  LedgerStore,
} from '@app/application';
import { openLedgerSigner, openLedgerStore } from '../adapters';
import { type AppConfig, ConfigError } from '../config';
import { APP_CONFIG } from '../tokens';
import { LedgerController } from './ledger.controller';

/**
 * The ledger's life: every process first checks that the log was built from its event store (a
 * log of another store is the operator's configuration to fix: a ConfigError, exit code 2, as for
 * the read models); the projector then builds the log (unless LEDGER=off, for measurements) and
 * stops before the stores close; every process serves its routes.
 */
class LedgerLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    private readonly ledger: Ledger,
    @Inject(LEDGER_STORE) private readonly store: LedgerStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.ledger.checkSource();
    } catch (error) {
      throw error instanceof LedgerSourceMismatchError ? new ConfigError(error.message) : error;
    }
    if (this.config.ledger === 'on') this.ledger.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.ledger.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

@Module({
  controllers: [LedgerController],
  providers: [
    { provide: LEDGER_STORE, useFactory: (config: AppConfig) => openLedgerStore(config), inject: [APP_CONFIG] },
    {
      provide: Ledger,
      useFactory: (config: AppConfig, events: EventStore, store: LedgerStore) =>
        new Ledger(events, store, openLedgerSigner(config), {
          role: config.projections === 'external' ? 'replica' : 'projector',
          headIntervalMs: config.ledgerHeadIntervalMs,
          catchUpTimeoutMs: config.readYourWritesTimeoutMs,
          logger: new Logger('Ledger'),
        }),
      inject: [APP_CONFIG, EVENT_STORE, LEDGER_STORE],
    },
    LedgerLifecycle,
  ],
})
export class LedgerModule {}
