import { Query } from '@nestjs/cqrs';
import { ProjectionRole, ProjectionStatus } from '../projection-maintenance';

export interface ProjectionStatusReport {
  role: ProjectionRole;
  projections: ProjectionStatus[];
}

/** Each projection's stored checkpoint, lag and rebuild progress, and which kind of process answers. */
export class GetProjectionStatusQuery extends Query<ProjectionStatusReport> {}
