import { Module } from '@nestjs/common';
import { HISTORY_HANDLERS } from '@app/application';
import { HistoryController } from './history.controller';

@Module({ controllers: [HistoryController], providers: [...HISTORY_HANDLERS] })
export class HistoryModule {}
