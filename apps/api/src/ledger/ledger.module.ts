import {
  BeforeApplicationShutdown,
  Inject,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { EVENT_STORE, EventStore, Ledger, LEDGER_STORE, LedgerStore } from '@app/application';
import { openLedgerSigner, openLedgerStore } from '../adapters';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../tokens';
import { LedgerController } from './ledger.controller';

/**
 * The ledger's life: the projector builds the log from its start (unless LEDGER=off, for
 * measurements) and stops before the stores close; every process serves its routes.
 */
class LedgerLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    private readonly ledger: Ledger,
    @Inject(LEDGER_STORE) private readonly store: LedgerStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
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
