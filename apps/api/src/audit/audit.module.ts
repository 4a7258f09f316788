import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller';

/** The operator audit routes; their query handlers are registered with the history and operations modules. */
@Module({ controllers: [AuditController] })
export class AuditModule {}
