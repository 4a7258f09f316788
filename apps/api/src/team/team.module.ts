import { Module } from '@nestjs/common';
import { TEAM_HANDLERS } from '@app/application';
import { TeamController } from './team.controller';

@Module({ controllers: [TeamController], providers: [...TEAM_HANDLERS] })
export class TeamModule {}
