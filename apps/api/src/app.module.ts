import { DynamicModule, Inject, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import {
  ALL_PROJECTORS,
  ApiKeyAuthenticator,
  CLOCK,
  Clock,
  EVENT_STORE,
  EventSourcedRepository,
  EventStore,
  ID_GENERATOR,
  PROJECT_HANDLERS,
  ProjectionEngine,
  Projector,
  READ_MODEL_STORE,
  READ_YOUR_WRITES,
  ReadModelStore,
  ReadYourWrites,
  randomIds,
  systemClock,
  WORKSPACE_HANDLERS,
} from '@app/application';
import { AdminController } from './admin/admin.controller';
import type { AppConfig } from './config';
import { HealthController } from './health/health.controller';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { AuthGuard } from './http/auth.guard';
import { DtoValidationPipe } from './http/validation';
import { ProjectsController } from './projects/projects.controller';
import { openEventStore, openReadModelStore } from './storage';
import { APP_CONFIG } from './tokens';

const PROJECTORS = Symbol('Projectors');

/** Starts the projections before the first request and closes the stores after the last. */
class Lifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Lifecycle');

  constructor(
    private readonly engine: ProjectionEngine,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
  ) {}

  async onApplicationBootstrap() {
    await this.engine.start();
    // Serve nothing stale after a restart: the read models first catch up with the store.
    const head = await this.events.headPosition();
    if (!(await this.engine.waitFor(head, 120_000))) this.logger.warn('Projections still catching up at start');
  }

  async onApplicationShutdown() {
    await this.engine.stop();
    await this.events.close();
    await this.read.close();
  }
}

/** The composition root: ports bound to adapters, handlers, controllers and HTTP policies. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [CqrsModule.forRoot()],
      controllers: [HealthController, AdminController, ProjectsController],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: EVENT_STORE, useFactory: () => openEventStore(config) },
        { provide: READ_MODEL_STORE, useFactory: () => openReadModelStore(config) },
        { provide: CLOCK, useValue: systemClock },
        { provide: ID_GENERATOR, useValue: randomIds },
        { provide: PROJECTORS, useValue: ALL_PROJECTORS },
        {
          provide: ProjectionEngine,
          useFactory: (events: EventStore, read: ReadModelStore, projectors: Projector[]) =>
            new ProjectionEngine(events, read, projectors, new Logger('Projections')),
          inject: [EVENT_STORE, READ_MODEL_STORE, PROJECTORS],
        },
        { provide: READ_YOUR_WRITES, useExisting: ProjectionEngine },
        {
          provide: EventSourcedRepository,
          useFactory: (events: EventStore, clock: Clock, readModels: ReadYourWrites) =>
            new EventSourcedRepository(events, clock, readModels),
          inject: [EVENT_STORE, CLOCK, READ_YOUR_WRITES],
        },
        ApiKeyAuthenticator,
        ...WORKSPACE_HANDLERS,
        ...PROJECT_HANDLERS,
        Lifecycle,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_PIPE, useClass: DtoValidationPipe },
      ],
    };
  }
}
