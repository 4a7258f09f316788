import { Module } from '@nestjs/common';
import { JOB_TYPE_HANDLERS } from '@app/application';
import { JobTypesController } from './job-types.controller';

@Module({ controllers: [JobTypesController], providers: [...JOB_TYPE_HANDLERS] })
export class JobTypesModule {}
