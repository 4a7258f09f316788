import { Body, Controller, Get, NotFoundException, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, CurrentKey } from './api-key.guard';
import type { ApiKey } from './database';
import { CreateProjectDto } from './create-project.dto';
import { Project, ProjectPage, ProjectsService } from './projects.service';

@Controller('v1/projects')
@UseGuards(ApiKeyGuard)
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Post()
  create(@CurrentKey() key: ApiKey, @Body() dto: CreateProjectDto): { id: string } {
    return { id: this.projects.create(key, dto) };
  }

  @Get()
  list(@CurrentKey() key: ApiKey, @Query('cursor') cursor?: string): ProjectPage {
    return this.projects.list(key.workspace_id, cursor);
  }

  @Get(':id')
  get(@CurrentKey() key: ApiKey, @Param('id') id: string): Project {
    const project = this.projects.find(key.workspace_id, id);
    if (!project) throw new NotFoundException('Project not found');
    return project;
  }
}
