import { Module } from '@nestjs/common';
import { OPERATIONS_HANDLERS } from '@app/application';
import { OperationsController } from './operations.controller';

@Module({ controllers: [OperationsController], providers: [...OPERATIONS_HANDLERS] })
export class OperationsModule {}
