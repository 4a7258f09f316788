import { Module } from '@nestjs/common';
import {
  DASHBOARD_ACCESS_STORE,
  DASHBOARD_SETTINGS,
  DashboardAccess,
  DashboardSettings,
  DEFAULT_DASHBOARD_SETTINGS,
  GetApiKeyHandler,
  ListApiKeysHandler,
} from '@app/application';
import { openDashboardAccessStore } from '../adapters';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../tokens';
import { DashboardController } from './dashboard.controller';

/** The workspace dashboard (docs/dashboard.md) and the access it needs: links, sessions, the keys' list. */
@Module({
  controllers: [DashboardController],
  providers: [
    {
      provide: DASHBOARD_SETTINGS,
      useFactory: (config: AppConfig): DashboardSettings => ({
        ...DEFAULT_DASHBOARD_SETTINGS,
        linkTtlMs: config.dashboardLinkTtlMs,
      }),
      inject: [APP_CONFIG],
    },
    { provide: DASHBOARD_ACCESS_STORE, useFactory: openDashboardAccessStore, inject: [APP_CONFIG] },
    DashboardAccess,
    ListApiKeysHandler,
    GetApiKeyHandler,
  ],
  exports: [DashboardAccess],
})
export class DashboardModule {}
