import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { AdminModule } from './admin/admin.module';
import { AuditModule } from './audit/audit.module';
import type { AppConfig } from './config';
import { ConsoleModule } from './console/console.module';
import { CoreModule } from './core/core.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { HealthModule } from './health/health.module';
import { LimitsModule } from './limits/limits.module';
import { HistoryModule } from './history/history.module';
import { ObservabilityModule } from './observability/observability.module';
import { OperationsModule } from './operations/operations.module';
import { OpenApiModule } from './openapi/openapi.module';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { AuthGuard, RequestAuthentication } from './http/auth';
import { RequestValidationPipe } from './http/validation';
import { ProjectsModule } from './projects/projects.module';
import { JobsModule } from './jobs/jobs.module';
import { LedgerModule } from './ledger/ledger.module';
import { JobTypesModule } from './job-types/job-types.module';
import { TeamModule } from './team/team.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/**
 * The composition root: the core (ports bound to adapters) plus one module per feature, and the
 * HTTP policies every route shares (authentication, validation, error mapping).
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CqrsModule.forRoot(),
        CoreModule.forRoot(config),
        LimitsModule.forRoot(config),
        HealthModule,
        AdminModule,
        ProjectsModule,
        HistoryModule,
        OperationsModule,
        AuditModule,
        ObservabilityModule,
        JobsModule,
        JobTypesModule,
        TeamModule,
        WebhooksModule,
        LedgerModule,
        OpenApiModule,
        DashboardModule,
        ConsoleModule,
      ],
      providers: [
        RequestAuthentication,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
