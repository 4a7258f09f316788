import { Module } from '@nestjs/common';
import { WORKSPACE_HANDLERS } from '@app/application';
import { AdminController } from './admin.controller';

/** Operator API: workspaces, members, API keys. */
@Module({ controllers: [AdminController], providers: [...WORKSPACE_HANDLERS] })
export class AdminModule {}
