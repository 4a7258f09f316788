import { Module } from '@nestjs/common';
import { JOB_HANDLERS } from '@app/application';
import { JobsController } from './jobs.controller';

@Module({ controllers: [JobsController], providers: [...JOB_HANDLERS] })
export class JobsModule {}
