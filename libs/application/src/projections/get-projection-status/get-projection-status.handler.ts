import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProjectionMaintenance } from '../projection-maintenance';
import { GetProjectionStatusQuery, ProjectionStatusReport } from './get-projection-status.query';

@QueryHandler(GetProjectionStatusQuery)
export class GetProjectionStatusHandler implements IQueryHandler<GetProjectionStatusQuery, ProjectionStatusReport> {
  constructor(private readonly maintenance: ProjectionMaintenance) {}

  async execute(): Promise<ProjectionStatusReport> {
    return { role: this.maintenance.role, projections: await this.maintenance.status() };
  }
}
