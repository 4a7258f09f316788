import { Module } from '@nestjs/common';
import { CONSOLE_SETTINGS, ConsoleAccess, ConsoleSettings, DEFAULT_CONSOLE_TIMEOUTS } from '@app/application';
import type { AppConfig } from '../config';
import { DashboardModule } from '../dashboard/dashboard.module';
import { APP_CONFIG } from '../tokens';
import { ConsoleController } from './console.controller';
import { ConsoleAuditController } from './console-audit.controller';
import { ConsoleApiKeyRefusal, ConsolePages } from './console-pages';

/** The operator console (docs/console.md), on the dashboard's views, headers and session store. */
@Module({
  imports: [DashboardModule],
  controllers: [ConsoleController, ConsoleAuditController],
  providers: [
    {
      provide: CONSOLE_SETTINGS,
      useFactory: (config: AppConfig): ConsoleSettings => ({
        ...DEFAULT_CONSOLE_TIMEOUTS,
        adminToken: config.adminToken,
      }),
      inject: [APP_CONFIG],
    },
    ConsoleAccess,
    ConsolePages,
    ConsoleApiKeyRefusal,
  ],
})
export class ConsoleModule {}
