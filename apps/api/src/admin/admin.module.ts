import { Module } from '@nestjs/common';
import { WORKSPACE_HANDLERS } from '@app/application';
import { DashboardModule } from '../dashboard/dashboard.module';
import { AdminController } from './admin.controller';
import { AdminReadsController } from './admin-reads.controller';
import { OperatorsController } from './operators.controller';

/** Operator API: workspaces, members, API keys, dashboard sign-in links, operator credentials. */
@Module({
  imports: [DashboardModule],
  controllers: [AdminController, AdminReadsController, OperatorsController],
  providers: [...WORKSPACE_HANDLERS],
})
export class AdminModule {}
