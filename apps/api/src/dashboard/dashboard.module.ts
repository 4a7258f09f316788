import { Module } from '@nestjs/common';
import {
  DASHBOARD_ACCESS_STORE,
  DASHBOARD_SETTINGS,
  DashboardAccess,
  DashboardSettings,
  DEFAULT_DASHBOARD_SETTINGS,
  GetApiKeyHandler,
  ListApiKeysHandler,
  ApiKeyDailyRequestsHandler,
} from '@app/application';
import { openDashboardAccessStore } from '../adapters';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../tokens';
import { DashboardAccessController } from './dashboard-access.controller';
import { DashboardApiKeysController } from './dashboard-api-keys.controller';
import { DashboardAuditController } from './dashboard-audit.controller';
import { DashboardPages } from './dashboard-pages';
import { DashboardTeamController } from './dashboard-team.controller';
import { DashboardWebhooksController } from './dashboard-webhooks.controller';

/** The workspace dashboard (docs/dashboard.md) and the access it needs: links, sessions, the keys' list. */
@Module({
  // The access controller holds the catch-all page for unknown paths, so it is registered last.
  controllers: [
    DashboardApiKeysController,
    DashboardTeamController,
    DashboardWebhooksController,
    DashboardAuditController,
    DashboardAccessController,
  ],
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
    DashboardPages,
    ListApiKeysHandler,
    GetApiKeyHandler,
    ApiKeyDailyRequestsHandler,
  ],
  exports: [DashboardAccess],
})
export class DashboardModule {}
