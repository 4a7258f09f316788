import { Module } from '@nestjs/common';
import { PROJECT_HANDLERS } from '@app/application';
import { ProjectsController } from './projects.controller';

@Module({ controllers: [ProjectsController], providers: [...PROJECT_HANDLERS] })
export class ProjectsModule {}
