import { Module } from '@nestjs/common';
import {
  DASHBOARD_ACCESS_STORE,
  DASHBOARD_SETTINGS,
  DashboardAccess,
  DashboardSettings,
  DEFAULT_DASHBOARD_SETTINGS,
  ChangeStatusLabelsHandler,
  GetApiKeyHandler,
  GetStatusLabelsHandler,
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
import { DashboardProjectsController } from './dashboard-projects.controller';
import { DashboardStatusLabelsController } from './dashboard-status-labels.controller';
import { DashboardTeamController } from './dashboard-team.controller';
import { DashboardWebhooksController } from './dashboard-webhooks.controller';

/** The workspace dashboard (docs/dashboard.md) and what it needs beyond the API's handlers: access, the keys' list, status display names. */
@Module({
  // The access controller holds the catch-all page for unknown paths, so it is registered last.
  controllers: [
    DashboardApiKeysController,
    DashboardTeamController,
    DashboardWebhooksController,
    DashboardProjectsController,
    DashboardStatusLabelsController,
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
    ChangeStatusLabelsHandler,
    GetStatusLabelsHandler,
    ApiKeyDailyRequestsHandler,
  ],
  // The console keeps its sessions in the same store.
  exports: [DashboardAccess, DASHBOARD_ACCESS_STORE],
})
export class DashboardModule {}
