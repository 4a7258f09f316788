import { ApiProperty } from '@nestjs/swagger';
import { ASSIGNMENT_MESSAGES as M, MAX_PILOTS_PER_REQUEST } from '@app/domain';
import { PILOTS_FIELD } from '../../openapi/schemas/jobs.schema';
import { PilotIdList } from '../job-field-rules';

/** POST .../assign (docs/api.md, Jobs): user ids of pilots, from GET /team?role=pilot. */
export class AssignPilotsDto {
  @ApiProperty(PILOTS_FIELD)
  @PilotIdList(M.assignPilotsRequired, MAX_PILOTS_PER_REQUEST, M.pilotsCount, M.pilotIds)
  pilots: string[] = undefined as never;
}
