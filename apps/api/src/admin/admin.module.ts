import { Module } from '@nestjs/common';
import { WORKSPACE_HANDLERS } from '@app/application';
import { DashboardModule } from '../dashboard/dashboard.module';
import { AdminController } from './admin.controller';

/** Operator API: workspaces, members, API keys, dashboard sign-in links. */
@Module({ imports: [DashboardModule], controllers: [AdminController], providers: [...WORKSPACE_HANDLERS] })
export class AdminModule {}
